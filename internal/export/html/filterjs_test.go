package htmlexport

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/filter"
)

// filterHarness runs assets/filter.js in node over the cases on stdin and
// prints, for each filter, its error or the names of the items it matches.
const filterHarness = `
const fs = require("fs"), vm = require("vm");
const f = vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8") + "\nmcptrailFilter");
const c = JSON.parse(fs.readFileSync(0, "utf8"));
const out = c.filters.map((text) => {
  try {
    const terms = f.parse(text, c.spec);
    return { match: Object.keys(c.items).sort().filter((k) => f.matchAll(terms, c.items[k])) };
  } catch (e) {
    if (!(e instanceof f.SyntaxErr)) throw e;
    return { err: e.message };
  }
});
process.stdout.write(JSON.stringify(out));
`

// jsItem is an item as the page's script gives it to the filter.
type jsItem struct {
	Target  string   `json:"target"`
	Method  string   `json:"method"`
	IDs     []string `json:"ids"`
	Dir     string   `json:"dir"`
	Status  string   `json:"status"`
	Late    bool     `json:"late"`
	Era     string   `json:"era"`
	Elicit  []string `json:"elicit"`
	Rules   []string `json:"rules"`
	Dur     float64  `json:"dur"` // ms, -1 unknown
	Message string   `json:"message"`
}

type jsResult struct {
	Err   string   `json:"err,omitempty"`
	Match []string `json:"match,omitempty"`
}

// TestFilterScriptMatchesGo checks that the page's filter (assets/filter.js)
// parses and matches as the TUI's filter package does: the same errors for
// the same mistakes, the same items for the same terms.
func TestFilterScriptMatchesGo(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed (.ci/run installs it with npm)")
		}
		t.Skip("node is not installed: the page's filter script is not checked against the Go filter")
	}
	items := map[string]*filter.Item{
		"call": {Target: "get weather", Method: "tools/call", IDs: []string{"7", `"op-1"`}, Dir: "c2s", Status: "tool-error",
			Era: "modern", Rules: []string{"late-response", "id-reused"}, Duration: 600 * time.Millisecond, DurationKnown: true,
			Message: "City Not Found"},
		"elicit": {Method: "elicitation/create", IDs: []string{"3", `"op-1"`}, Dir: "s2c", Status: "pending", Era: "legacy",
			Elicit: []string{"decline", "pending"}},
		"late": {Target: "slow_tool", Method: "tools/call", IDs: []string{"9"}, Dir: "c2s", Status: "ok", Late: true, Era: "modern",
			Duration: 2500 * time.Millisecond, DurationKnown: true},
		"note": {Method: "notifications/progress", Dir: "s2c", Message: "50%"},
	}
	filters := []string{
		"", "tool:get", `tool:"get weather"`, "tool:get*", "tool:*weath*", "!tool:get*", "tool:*", "method:tools/call",
		"method:*/c*", "!method:notifications/*", "id:7", "id:op-1", `id:"\"op-1\""`, "id:op", "dir:s2c", "status:tool-error",
		"status:late", "STATUS:OK", "!status:pending", "era:legacy", "elicit:decline", "elicit:accept", "rule:id-reused",
		"rule:late-*", "slow:>500ms", "slow:>600", "slow:>=600", "slow:<1s", "slow:<=0.6s", "slow:>1m", "slow:>2s500ms",
		"!slow:>500ms", "weather", "not found", `"not found"`, "CREATE", "50%", "!weather", "tools/call status:ok",
		// Mistakes.
		"bogus:x", "tool:", `tool:"unterminated`, `"a"b`, `tool:"x"y`, "status:fine", "slow:500ms", "slow:>", "slow:>fast",
		"slow:>1e3", `""`, ":x", "dir:up", `ab"c`,
	}
	spec := map[string]any{"keys": filter.Keys(), "enums": enums()}
	js := map[string]jsItem{}
	for name, it := range items {
		dur := -1.0
		if it.DurationKnown {
			dur = float64(it.Duration) / float64(time.Millisecond)
		}
		js[name] = jsItem{Target: it.Target, Method: it.Method, IDs: orEmpty(it.IDs), Dir: it.Dir, Status: it.Status, Late: it.Late,
			Era: it.Era, Elicit: orEmpty(it.Elicit), Rules: orEmpty(it.Rules), Dur: dur, Message: it.Message}
	}
	in, err := json.Marshal(map[string]any{"spec": spec, "items": js, "filters": filters})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", filterHarness, "assets/filter.js")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got []jsResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's output %q: %v", out, err)
	}
	var want []jsResult
	for _, text := range filters {
		f, err := filter.Parse(text)
		if err != nil {
			want = append(want, jsResult{Err: err.Error()})
			continue
		}
		var r jsResult
		for _, name := range slices.Sorted(mapKeys(items)) {
			if f.Match(items[name]) {
				r.Match = append(r.Match, name)
			}
		}
		want = append(want, r)
	}
	for i := range filters {
		if diff := cmp.Diff(want[i], got[i], cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("filter %q (-Go +script):\n%s", filters[i], diff)
		}
	}
}

func enums() map[string][]string {
	m := map[string][]string{}
	for _, k := range filter.Keys() {
		if vs := filter.Enums(k); vs != nil {
			m[k] = vs
		}
	}
	return m
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
