package index

import (
	"os"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// nullDup is a session of a null-id request and a duplicate response.
const nullDup = `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"abc1000000000000","transport":"stdio","label":"fixture","command":["srv"]}
{"type":"frame","seq":1,"time":"2026-07-28T09:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":null,"method":"tools/list"}}
{"type":"frame","seq":2,"time":"2026-07-28T09:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a"}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:00:02Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":7,"result":{"content":[]}}}
{"type":"frame","seq":4,"time":"2026-07-28T09:00:03Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":7,"result":{"content":[]}}}
{"type":"end","time":"2026-07-28T09:00:05Z"}
`

// indexedFindings returns the finding counts the index holds.
func indexedFindings(t *testing.T, ix *Index) []RuleCount {
	t.Helper()
	rows, err := ix.db.Query("SELECT rule, severity, n FROM findings ORDER BY rule")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []RuleCount
	for rows.Next() {
		var c RuleCount
		if err := rows.Scan(&c.Rule, &c.Severity, &c.N); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIndexGradesWithTheUsersRules checks that the index counts findings
// as the registry it is given grades them ([rules]: a rule disabled, a
// severity changed), and that an index made with other rules reads every
// capture again rather than keep counts graded differently.
func TestIndexGradesWithTheUsersRules(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	dir := filepath.Join(state, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "20260728T090000Z-fixture-abc1000000000000.jsonl"), []byte(nullDup), 0o600); err != nil {
		t.Fatal(err)
	}
	sync := func(reg *finding.Registry) ([]RuleCount, int) {
		ix, err := Open(state, func(s string) { t.Errorf("unexpected warning: %s", s) })
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		ix.SetRules(reg)
		n, err := ix.Sync(dir)
		if err != nil {
			t.Fatal(err)
		}
		return indexedFindings(t, ix), n
	}
	defaults := []RuleCount{{Rule: finding.DuplicateResponse, Severity: string(finding.Error), N: 1}, {Rule: finding.NullID, Severity: string(finding.Error), N: 1}}
	got, n := sync(nil)
	if diff := gocmp.Diff(defaults, got); diff != "" || n != 1 {
		t.Errorf("default rules: %d files read; counts (-want +got):\n%s", n, diff)
	}

	reg := rules.Default()
	if err := reg.Disable(finding.NullID); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetSeverity(finding.DuplicateResponse, finding.Info); err != nil {
		t.Fatal(err)
	}
	want := []RuleCount{{Rule: finding.DuplicateResponse, Severity: string(finding.Info), N: 1}}
	got, n = sync(reg)
	if diff := gocmp.Diff(want, got); diff != "" || n != 1 {
		t.Errorf("[rules] applied: %d files read; counts (-want +got):\n%s", n, diff)
	}
	// The same rules again: nothing to read.
	if got, n = sync(reg); n != 0 || !gocmp.Equal(want, got) {
		t.Errorf("same rules: %d files read, counts %v", n, got)
	}
	// Back to the defaults: read again.
	got, n = sync(rules.Default())
	if diff := gocmp.Diff(defaults, got); diff != "" || n != 1 {
		t.Errorf("back to the default rules: %d files read; counts (-want +got):\n%s", n, diff)
	}
}
