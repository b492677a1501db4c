package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that any input either parses into frames whose
// directions and delays are sane or is rejected with an error, never a
// panic.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../../testdata/transcripts/*.transcript.jsonl")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"dir":"c2s","after_ms":1,"raw_b64":"/w=="}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i, fr := range tr.Frames {
			if fr.AfterMS < 0 {
				t.Fatalf("frame %d has a negative delay %v", i, fr.AfterMS)
			}
		}
		if got := len(tr.OffsetsMS()); got != len(tr.Frames) {
			t.Fatalf("OffsetsMS has %d entries for %d frames", got, len(tr.Frames))
		}
	})
}
