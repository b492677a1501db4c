package stream

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestGrowMatchesRebuild feeds every transcript one frame at a time and
// checks that the rows grown incrementally are the rows built at once from
// the last Data, under several filters: calls answered, ledger rows
// answered and findings raised after a row was indexed must move it in or
// out of the filter.
func TestGrowMatchesRebuild(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(tuitest.Transcript("*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	filters := []string{"", "elicit:pending", "elicit:accept", "status:pending", "status:ok", "rule:*", "!status:input-required", "dir:s2c"}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			steps := tuitest.ReadTranscript(t, path)
			datas := make([]ui.Data, 0, len(steps)+1)
			for k := 1; k <= len(steps); k++ {
				datas = append(datas, tuitest.Data(t, tuitest.Capture(t, name, steps[:k], false)))
			}
			datas = append(datas, tuitest.Data(t, tuitest.Capture(t, name, steps, true)))
			for _, f := range filters {
				grown := New(ui.NewTheme(true)).SetSize(100, 30)
				grown = grown.apply(f)
				for _, d := range datas {
					grown = grown.SetData(d)
				}
				fresh := New(ui.NewTheme(true)).SetSize(100, 30).apply(f).SetData(datas[len(datas)-1])
				if diff := cmp.Diff(fresh.ix.rows, grown.ix.rows, cmp.AllowUnexported(row{}), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("filter %q: grown rows differ from built (-built +grown):\n%s", f, diff)
				}
				if g, w := grown.View(), fresh.View(); g != w {
					t.Errorf("filter %q: grown View differs from built:\n%s\nwant\n%s", f, g, w)
				}
			}
		})
	}
}
