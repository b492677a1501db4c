package corpus

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/golden"
)

// httpDir holds HTTP captures written by hand in the format the HTTP tap
// writes, for sessions no real peer here records: the 2024-11-05 HTTP+SSE
// transport spoken by a 2026-07-28 client, and its 2025 twin.
const httpDir = "../../testdata/http"

// TestHTTPCorpus exports each capture of testdata/http through the real
// binary (JSON and text) and holds the JSON export to its expectation.
func TestHTTPCorpus(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(httpDir, "*.capture.jsonl"))
	if err != nil || len(paths) < 2 {
		t.Fatalf("found %d captures in %s (%v), want at least 2", len(paths), httpDir, err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".capture.jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			expect := loadExpectationIn(t, httpDir, name)
			for _, format := range []string{"json", "txt"} {
				got := export(t, path, format, dir)
				if format == "json" {
					checkExpectation(t, expect, []byte(got))
				}
				golden.Check(t, filepath.Join(httpDir, name+"."+format+".golden"), got)
			}
		})
	}
}
