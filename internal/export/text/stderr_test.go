package textexport

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// renderExport feeds n frames and the stderr lines to a Writer and
// returns the export.
func renderExport(t *testing.T, n int, stderr []store.StderrLine, opts *Options) string {
	t.Helper()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	snap := &store.Snapshot{
		Session:  store.Session{ID: "s1", Start: t0},
		Findings: store.FindingsOf([]finding.Finding{finding.New(finding.InvalidFrame, 1, "bad frame")}),
		Counts:   store.Counts{Stderr: len(stderr)},
	}
	var out bytes.Buffer
	w := New(&out, &capture.Record{SessionID: "s1", Time: t0}, opts)
	defer w.Close()
	for i := range max(n, len(stderr)) {
		if i < n {
			w.Frame(&store.Frame{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond), Dir: capture.C2S,
				Kind: store.KindRequest, ID: wire.IntID(int64(i)), Method: "ping", Size: 40, Call: i})
		}
		if i < len(stderr) {
			w.Stderr(&stderr[i])
		}
	}
	if err := w.Finish(snap); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// sectionTitles lists the lines that start a section.
func sectionTitles(out string) []string {
	return regexp.MustCompile(`(?m)^[a-z][a-z ]*(\(.*\)(: [a-z0-9, ]+)?|: none)?$`).FindAllString(out, -1)
}

// TestSectionOrder checks that the report comes first (session, summary,
// operations, findings), the long tables after it, then the server's
// stderr and the frames last.
func TestSectionOrder(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	out := renderExport(t, 2, []store.StderrLine{{Time: t0, Record: &capture.Record{Text: "hello"}}}, nil)
	want := []string{"session", "summary", "operations (0)", "findings (1)", "requests (0): 0 calls", "stderr (1 line)", "frames"}
	if diff := cmp.Diff(want, sectionTitles(out)); diff != "" {
		t.Errorf("sections (-want +got):\n%s\n%s", diff, out)
	}
	out = renderExport(t, 0, nil, nil)
	want = []string{"session", "summary", "operations (0)", "findings (1)", "requests (0): 0 calls", "frames: none"}
	if diff := cmp.Diff(want, sectionTitles(out)); diff != "" {
		t.Errorf("sections without frames (-want +got):\n%s\n%s", diff, out)
	}
}

// TestStderrSection checks that every stderr line is shown, in order, with
// its index and time, escaped (bytes that are not UTF-8 included), and
// that a last line without a newline is said to be one.
func TestStderrSection(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	lines := []store.StderrLine{
		{Index: 0, Time: t0.Add(time.Millisecond), Record: &capture.Record{Text: "listening on \x1b[31mstdio"}},
		{Index: 1, Time: t0.Add(2 * time.Millisecond), Record: &capture.Record{B64: []byte("bad \xff byte")}},
		{Index: 2, Time: t0.Add(3 * time.Millisecond), Record: &capture.Record{}},
		{Index: 3, Time: t0.Add(2500 * time.Millisecond), Record: &capture.Record{Text: "panic: torn", NoEOL: true}},
	}
	out := renderExport(t, 1, lines, nil)
	start := strings.Index(out, "\nstderr (")
	end := strings.Index(out, "\nframes\n")
	if start < 0 || end < start {
		t.Fatalf("no stderr section before the frames:\n%s", out)
	}
	want := strings.Join([]string{
		"stderr (4 lines)",
		"  LINE   TIME      TEXT",
		`  0      +1.0ms    listening on \x1b[31mstdio`,
		`  1      +2.0ms    bad \xff byte`,
		"  2      +3.0ms    ",
		"  3      +2.50s    panic: torn",
		"  (line 3 ended without a newline)",
		"",
	}, "\n")
	if diff := cmp.Diff(want, out[start+1:end]); diff != "" {
		t.Errorf("stderr section (-want +got):\n%s", diff)
	}
}

// TestFramesSpill checks that frames and stderr lines spilled to a file
// come out the same as those kept in memory, and that Close removes the
// files.
func TestFramesSpill(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	var lines []store.StderrLine
	for i := range 300 {
		lines = append(lines, store.StderrLine{Index: i, Time: t0, Record: &capture.Record{Text: strings.Repeat("x", i)}})
	}
	dir := t.TempDir()
	mem := renderExport(t, 500, lines, nil)
	spilled := renderExport(t, 500, lines, &Options{SpoolDir: dir, SpoolMemory: 1024})
	if diff := cmp.Diff(mem, spilled); diff != "" {
		t.Errorf("spilled export differs (-memory +spilled):\n%s", diff)
	}
	if n := len(regexp.MustCompile(`(?m)^  #`).FindAllString(mem, -1)); n != 500 {
		t.Errorf("%d frame lines, want 500", n)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("spools left %d files behind", len(left))
	}
}
