package corpus

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// canaries are the distinctive strings the corpus transcripts submit as
// answer content; no ledger output may ever hold one.
var canaries = regexp.MustCompile(`FIXTURE-CANARY|LEDGER-CANARY|canary@example\.com`)

// TestLedgerGoldens checks the golden exports the corpus test compares
// against (so, the real exports): an elicitation answer's content appears
// in no export outside the raw frames, and a transcript without
// elicitation/create has no elicitations key or section at all.
func TestLedgerGoldens(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(transcriptDir, "*.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sawCanary := 0
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
		t.Run(name, func(t *testing.T) {
			tr, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			asks := strings.Contains(string(tr), `elicitation/create`)
			if canaries.Match(tr) {
				sawCanary++
			}
			txt := readGolden(t, name+".txt.golden")
			if m := canaries.FindString(txt); m != "" {
				t.Errorf("text export holds answer content %q", m)
			}
			if got := strings.Contains(txt, "\nelicitations ("); got != asks {
				t.Errorf("text export has an elicitations section: %v; the transcript asks: %v", got, asks)
			}
			doc := map[string]jsontext.Value{}
			if err := json.Unmarshal([]byte(readGolden(t, name+".json.golden")), &doc); err != nil {
				t.Fatal(err)
			}
			delete(doc, "frames") // the raw messages, kept on purpose
			for key, v := range doc {
				if m := canaries.FindString(string(v)); m != "" {
					t.Errorf("JSON export member %q holds answer content %q", key, m)
				}
			}
			_, hasKey := doc["elicitations"]
			var summary map[string]jsontext.Value
			if err := json.Unmarshal(doc["summary"], &summary); err != nil {
				t.Fatal(err)
			}
			_, hasSummary := summary["elicitations"]
			if hasKey != asks || hasSummary != asks {
				t.Errorf("JSON export has elicitations %v, summary.elicitations %v; the transcript asks: %v", hasKey, hasSummary, asks)
			}
		})
	}
	if sawCanary < 3 {
		t.Errorf("%d transcripts submit a canary, want at least 3", sawCanary)
	}
}

func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(transcriptDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
