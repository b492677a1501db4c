package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// corpusStart is the start time of every normalised capture.
var corpusStart = time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)

// writeNormalised writes the capture recs (already checked against tr)
// with deterministic times and ids, so that its exports can be golden: the
// session starts at corpusStart, each frame and stderr line takes the
// time its transcript line gives (the sum of after_ms so far), in
// transcript order, and the tap's notes follow at the end. Everything else,
// the frames' bytes and seqs included, is the real capture's.
func writeNormalised(t *testing.T, tr *transcript.Transcript, recs []capture.Record, name, path string) {
	t.Helper()
	offsets := tr.OffsetsMS()
	at := func(ms float64) time.Time { return corpusStart.Add(time.Duration(ms * float64(time.Millisecond))) }
	last := corpusStart
	if len(offsets) > 0 {
		last = at(offsets[len(offsets)-1])
	}
	var frames, stderr, tail []capture.Record
	for _, r := range recs[1:] {
		switch r.Type {
		case capture.TypeFrame:
			frames = append(frames, r)
		case capture.TypeStderr:
			stderr = append(stderr, r)
		default:
			r.Time = last
			tail = append(tail, r)
		}
	}
	head := recs[0]
	head.SessionID, head.Time, head.ToolVersion = name, corpusStart, "corpus"
	head.Command = []string{"mcptrail", "__replay-server", name + ".transcript.jsonl", "--scale", "0"}
	out := []capture.Record{head}
	for i, f := range tr.Frames {
		src := &frames
		if f.Dir == transcript.Stderr {
			src = &stderr
		}
		if len(*src) == 0 {
			t.Fatalf("transcript line %d has no captured record", f.Line)
		}
		r := (*src)[0]
		*src = (*src)[1:]
		r.Time = at(offsets[i])
		out = append(out, r)
	}
	out = append(out, tail...)

	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := capture.NewWriter(file)
	for i := range out {
		if err := w.Write(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
}

// export runs `mcptrail export -T format -o FILE capture` and returns what
// it wrote; "txt" means the text format, with --wide: the goldens hold
// every cell whole (internal/export/text has the goldens of tables cut to
// a width).
func export(t *testing.T, capturePath, format, dir string) string {
	t.Helper()
	args := []string{"export", "-T", format, "-o", filepath.Join(dir, "export."+format), capturePath}
	if format == "txt" {
		args[2] = "text"
		args = append(args, "--wide")
	}
	out := args[4]
	cmd := exec.Command(testBinary, args...)
	if b, err := cmd.CombinedOutput(); err != nil || len(b) > 0 {
		t.Fatalf("mcptrail %v: %v\n%s", args, err, b)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("export file mode = %v, want 0600", fi.Mode().Perm())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
