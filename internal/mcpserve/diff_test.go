package mcpserve_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiffAndTools calls the diff and tools tools over the real binary
// and compares them with the CLI on the same sessions: diff's changes,
// regrouped by section, are `mcptrail diff --json`'s lists; tools' tools
// are `mcptrail tools --json`'s, and its drift from a baseline session
// raises the rules `mcptrail check --tools-baseline` raises with that
// session pinned.
func TestDiffAndTools(t *testing.T) {
	t.Parallel()
	names := []string{"catalog-drift", "errors", "elicit-seed", "mrtr-chain", "apps", "skills-verified"}
	state := stateWith(t, names...)
	cs := connect(t, state)

	for _, pair := range [][2]string{{"errors", "elicit-seed"}, {"catalog-drift", "apps"}, {"mrtr-chain", "elicit-seed"}, {"errors", "errors"}} {
		a, b := "tuitest-"+pair[0], "tuitest-"+pair[1]
		t.Run("diff "+pair[0]+" "+pair[1], func(t *testing.T) {
			var rep map[string]any
			cli(t, state, &rep, "diff", "--json", a, b)
			head := call(t, cs, "diff", map[string]any{"a": a, "b": b})
			changes := pages(t, cs, "diff", map[string]any{"a": a, "b": b}, "changes", 16<<10)
			got := map[string][]any{}
			for _, c := range changes {
				m := c.(map[string]any)
				got[m["section"].(string)] = append(got[m["section"].(string)], m["change"])
			}
			differs := false
			for _, sec := range []string{"catalog", "calls.changed", "calls.only_a", "calls.only_b", "calls.slower", "ledger", "findings.new", "findings.gone", "latency"} {
				var want any = rep
				for _, k := range strings.Split(sec, ".") {
					want = want.(map[string]any)[k]
				}
				if d := cmp.Diff(want, any(got[sec]), jsonOpts()); d != "" {
					t.Errorf("section %s (-diff --json +tool):\n%s", sec, d)
				}
				if sec != "latency" && len(got[sec]) > 0 {
					differs = true
				}
			}
			if !cmp.Equal(head.structured["a"], rep["a"]) || !cmp.Equal(head.structured["b"], rep["b"]) {
				t.Errorf("sides %v %v, diff --json %v %v", head.structured["a"], head.structured["b"], rep["a"], rep["b"])
			}
			if head.structured["differs"] != differs && !(head.structured["differs"] == true && len(got["latency"]) > 0) {
				t.Errorf("differs %v with changes %v", head.structured["differs"], got)
			}
			if pair[0] != pair[1] && (len(changes) == 0 || head.structured["differs"] != true) {
				t.Errorf("%s and %s: differs %v, no change", a, b, head.structured["differs"])
			}
			if pair[0] == pair[1] && (head.structured["differs"] != false || len(changes) != 0) {
				t.Errorf("a session differs from itself: %v", changes)
			}
			noCanary(t, head)
		})
	}

	for _, name := range names {
		id := "tuitest-" + name
		var cat map[string]any
		cli(t, state, &cat, "tools", "--json", id)
		for _, member := range []string{"tools", "skills", "apps"} {
			got := pages(t, cs, "tools", map[string]any{"session": id, "list": member}, member, 16<<10)
			want, _ := cat[member].([]any)
			if d := cmp.Diff(want, got, jsonOpts(), cutStrings()); d != "" {
				t.Errorf("%s of %s (-tools --json +tool):\n%s", member, id, d)
			}
			if name == "skills-verified" && member == "skills" && len(got) == 0 || name == "apps" && member == "apps" && len(got) == 0 {
				t.Errorf("%s of %s: none", member, id)
			}
		}
	}

	base := filepath.Join(t.TempDir(), "base.json")
	var ignored any
	cli(t, state, &ignored, "tools", "--json", "--save-baseline", base, "tuitest-catalog-drift")
	for _, name := range []string{"errors", "apps", "catalog-drift"} {
		id := "tuitest-" + name
		var rep struct {
			Results []struct {
				Items []struct {
					Rule string `json:"rule"`
				} `json:"items"`
			} `json:"results"`
		}
		cli(t, state, &rep, "check", "-T", "json", "--tools-baseline", base, id)
		want := map[string]float64{}
		for _, it := range rep.Results[0].Items {
			if strings.HasPrefix(it.Rule, "tool-") {
				want[it.Rule]++
			}
		}
		drift := pages(t, cs, "tools", map[string]any{"session": id, "baseline": "tuitest-catalog-drift"}, "drift", 16<<10)
		byRule := map[string]float64{}
		for _, d := range drift {
			byRule[d.(map[string]any)["kind"].(string)]++
		}
		if d := cmp.Diff(want, byRule, jsonOpts()); d != "" {
			t.Errorf("drift of %s from catalog-drift (-check --tools-baseline +tool):\n%s", id, d)
		}
		if name == "apps" && len(drift) == 0 {
			t.Errorf("%s: no drift from catalog-drift", id)
		}
		head := call(t, cs, "tools", map[string]any{"session": id, "baseline": "tuitest-catalog-drift"})
		if head.structured["baseline"] != "tuitest-catalog-drift" {
			t.Errorf("tools with a baseline: %v", head.structured)
		}
	}
	for _, bad := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"diff", map[string]any{"a": "tuitest-errors"}, "two sessions"},
		{"diff", map[string]any{"a": "tuitest-errors", "b": "nosuch"}, "nosuch"},
		{"diff", map[string]any{"a": "tuitest-errors", "b": "tuitest-apps", "slower_than": "0.5"}, "factor"},
		{"diff", map[string]any{"a": "tuitest-errors", "b": "tuitest-apps", "ignore": []string{"x"}}, "JSON Pointer"},
		{"tools", map[string]any{"baseline": "nosuch"}, "baseline"},
		{"tools", map[string]any{"list": "prompts"}, "want tools"},
		{"tools", map[string]any{"list": "skills", "baseline": "tuitest-apps"}, "leave list out"},
	} {
		got := call(t, cs, bad.tool, bad.args)
		if !got.isError || !strings.Contains(got.text, bad.want) {
			t.Errorf("%s %v: error %v %q, want an error saying %q", bad.tool, bad.args, got.isError, got.text, bad.want)
		}
	}
}
