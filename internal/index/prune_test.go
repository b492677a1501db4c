package index

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPrunePolicySelect: a file goes only when every session it holds is
// selected (by label, age and --keep); a file that is gone is left out.
func TestPrunePolicySelect(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, data string) string {
		p := filepath.Join(dir, name)
		if data != "" {
			if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	day := func(d int) time.Time { return time.Date(2026, 11, d, 9, 0, 0, 0, time.UTC) }
	newest, appended, old, gone := file("newest.jsonl", "1"), file("appended.jsonl", "22"), file("old.jsonl", "333"), file("gone.jsonl", "")
	all := []Session{ // newest first
		{Path: newest, Label: "a", Start: day(30)},
		{Path: appended, Label: "a", Start: day(20)},
		{Path: old, Label: "b", Start: day(10)},
		{Path: appended, Label: "a", Start: day(5)},
		{Path: old, Label: "b", Start: day(4)},
		{Path: gone, Label: "a", Start: day(1)},
	}
	tests := []struct {
		name string
		p    PrunePolicy
		want []Prunable
	}{
		{"older than the 15th", PrunePolicy{Before: day(15), ByAge: true}, []Prunable{{old, 2, 3}}},
		{"older than the 25th", PrunePolicy{Before: day(25), ByAge: true}, []Prunable{{appended, 2, 2}, {old, 2, 3}}},
		{"keep the newest 2", PrunePolicy{Keep: 2, KeepSet: true}, []Prunable{{old, 2, 3}}},
		{"label b, keep none", PrunePolicy{Label: "b", KeepSet: true}, []Prunable{{old, 2, 3}}},
		{"label a, keep 1", PrunePolicy{Label: "a", Keep: 1, KeepSet: true}, []Prunable{{appended, 2, 2}}},
		{"label a, keep 1 and older than the 10th", PrunePolicy{Label: "a", Keep: 1, KeepSet: true, Before: day(10), ByAge: true}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.p.Select(all)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
