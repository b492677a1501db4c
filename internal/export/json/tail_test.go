package jsonexport

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// largestWrite records the largest single Write it is given.
type largestWrite struct {
	bytes.Buffer
	max int
}

func (w *largestWrite) Write(p []byte) (int, error) {
	w.max = max(w.max, len(p))
	return w.Buffer.Write(p)
}

// TestTailBounded checks that the sections after the frames are written
// as they are encoded: the findings of a session were encoded into one
// buffer first, which for a million of them grew past 200 MB.
func TestTailBounded(t *testing.T) {
	t.Parallel()
	snap := sampleSnapshot()
	var fs []finding.Finding
	for i := range 20_000 {
		fs = append(fs, finding.New(finding.UnansweredRequest, uint64(i+1), "c2s tools/call id %d was never answered", i+1))
	}
	snap.Findings = store.FindingsOf(fs)
	var out largestWrite
	w := New(&out, nil)
	if err := w.Finish(snap); err != nil {
		t.Fatal(err)
	}
	if !jsontext.Value(out.Bytes()).IsValid() {
		t.Fatal("export is not valid JSON")
	}
	if n := bytes.Count(out.Bytes(), []byte(`"rule":"unanswered-request"`)); n != 20_000 {
		t.Errorf("%d findings written, want 20000", n)
	}
	if limit := 256<<10 + 64<<10; out.max > limit {
		t.Errorf("largest write %d bytes, want ≤ %d: the tail was buffered whole", out.max, limit)
	}
}
