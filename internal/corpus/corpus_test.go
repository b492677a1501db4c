package corpus

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// testBinary is the mcptrail binary built once by TestMain.
var testBinary string

const transcriptDir = "../../testdata/transcripts"

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "mcptrail-corpus-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBinary, err = testbin.Build(dir, testbin.Mcptrail, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestCorpus(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(transcriptDir, "*.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 14 {
		t.Fatalf("found %d transcripts, want at least 14 (both fixtures and 12 of our own)", len(paths))
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr, err := transcript.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			raw := filepath.Join(dir, "capture.jsonl")
			runThroughTap(t, tr, path, raw, name)
			recs := readCapture(t, raw)
			checkLossless(t, tr, recs)
			norm := filepath.Join(dir, "normalised.jsonl")
			writeNormalised(t, tr, recs, name, norm)
			expect := loadExpectation(t, name)
			outs := map[string]string{}
			for _, format := range []string{"json", "txt", "events"} {
				got := export(t, norm, format, dir)
				outs[format] = got
				if format == "json" {
					checkExpectation(t, expect, []byte(got))
				}
				golden.Check(t, filepath.Join(transcriptDir, name+"."+format+".golden"), got)
			}
			checkStderr(t, tr, outs["json"], outs["txt"])
		})
	}
}

// runThroughTap plays tr's client side against
// `mcptrail --capture raw -- mcptrail __replay-server path --scale 0`.
func runThroughTap(t *testing.T, tr *transcript.Transcript, path, raw, label string) {
	t.Helper()
	stderr := playThroughProxy(t, tr, path, "--capture", raw, "--label", label)
	// The server's stderr passes through the tap unchanged.
	var wantErr strings.Builder
	for _, f := range tr.Frames {
		if f.Dir == transcript.Stderr {
			wantErr.Write(f.Raw)
			if !f.NoEOL {
				wantErr.WriteByte('\n')
			}
		}
	}
	if diff := cmp.Diff(wantErr.String(), stderr); diff != "" {
		t.Errorf("stderr through the proxy (-want +got):\n%s", diff)
	}
}

// playThroughProxy plays tr's client side against
// `mcptrail args... -- mcptrail __replay-server path --scale 0`, fails t
// unless both sides end cleanly, and returns the proxy's stderr.
func playThroughProxy(t *testing.T, tr *transcript.Transcript, path string, args ...string) string {
	t.Helper()
	return testbin.PlayThroughProxy(t, testBinary, tr, path, []string{"MCPTRAIL_HOME=" + t.TempDir()}, args...)
}

func readCapture(t *testing.T, path string) []capture.Record {
	t.Helper()
	h, recs, d, err := capture.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Torn || d.Corrupt > 0 {
		t.Fatalf("capture damaged: %+v", d)
	}
	return append([]capture.Record{*h}, recs...)
}

// wireFrame is what crossed the tap, for comparing with the transcript.
type wireFrame struct {
	Dir   string
	Bytes string
	NoEOL bool
}

// checkLossless asserts that the capture holds exactly the transcript's
// frames, in order, byte for byte, with seq 1..n, and its stderr lines.
func checkLossless(t *testing.T, tr *transcript.Transcript, recs []capture.Record) {
	t.Helper()
	var want, got, wantErr, gotErr []wireFrame
	for _, f := range tr.Frames {
		wf := wireFrame{Dir: string(f.Dir), Bytes: string(f.Raw), NoEOL: f.NoEOL}
		if f.Dir == transcript.Stderr {
			wf.Dir = ""
			wantErr = append(wantErr, wf)
		} else {
			want = append(want, wf)
		}
	}
	for _, r := range recs {
		switch r.Type {
		case capture.TypeFrame:
			if r.Seq != uint64(len(got)+1) {
				t.Errorf("frame %d has seq %d", len(got)+1, r.Seq)
			}
			got = append(got, wireFrame{Dir: string(r.Dir), Bytes: string(r.Bytes()), NoEOL: r.NoEOL})
		case capture.TypeStderr:
			gotErr = append(gotErr, wireFrame{Bytes: string(r.Bytes()), NoEOL: r.NoEOL})
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("captured frames (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantErr, gotErr); diff != "" {
		t.Errorf("captured stderr (-want +got):\n%s", diff)
	}
}
