package htmlexport

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/filter"
)

// filterHarness loads the page's script as the page carries it (argv[1])
// in a context whose document throws once touched: the filter script runs,
// report.js stops at its first line, and mcptrailFilter stays defined. The
// spec is report-data's "filter" member, parsed from the page's own text
// (argv[2]). On stdin come the items and the filters; it prints, for each
// filter, its error or the names of the items it matches, and the script's
// lower of each string of "lower".
const filterHarness = `
const fs = require("fs"), vm = require("vm");
const stop = new Error("document touched");
const ctx = vm.createContext({ document: { getElementById() { throw stop; } } });
try { vm.runInContext(fs.readFileSync(process.argv[1], "utf8"), ctx); } catch (e) { if (e !== stop) throw e; }
const f = vm.runInContext("mcptrailFilter", ctx);
const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).filter;
const c = JSON.parse(fs.readFileSync(0, "utf8"));
const out = c.filters.map((text) => {
  try {
    const terms = f.parse(text, spec);
    return { match: Object.keys(c.items).sort().filter((k) => f.matchAll(terms, c.items[k])) };
  } catch (e) {
    if (!(e instanceof f.SyntaxErr)) throw e;
    return { err: e.message };
  }
});
process.stdout.write(JSON.stringify({ results: out, lower: c.lower.map((s) => f.lower(s)) }));
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

// goItem is the filter.Item the TUI makes of the same row: a known
// duration in ms becomes a time.Duration as stream.item converts it.
func (j jsItem) goItem() *filter.Item {
	it := &filter.Item{Target: j.Target, Method: j.Method, IDs: j.IDs, Dir: j.Dir, Status: j.Status, Late: j.Late,
		Era: j.Era, Elicit: j.Elicit, Rules: j.Rules, Message: j.Message}
	if j.Dur >= 0 {
		it.Duration, it.DurationKnown = time.Duration(j.Dur*float64(time.Millisecond)), true
	}
	return it
}

type jsResult struct {
	Err   string   `json:"err,omitempty"`
	Match []string `json:"match,omitempty"`
}

// shipped is the filter as one rendered page carries it: the text of its
// script element and of its report-data block, each written to a file.
type shipped struct{ script, data string }

// shippedFilter renders a real session and writes out the page's script and
// report-data, byte for byte.
func shippedFilter(t *testing.T) shipped {
	t.Helper()
	page, _ := render(t, transcriptCapture(t, "../../../testdata/transcripts/legacy-2025-11-25.transcript.jsonl", "legacy"))
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if len(scripts) != 1 {
		t.Fatalf("the page has %d plain <script> elements, want 1", len(scripts))
	}
	if !strings.Contains(scripts[0][1], "const mcptrailFilter") {
		t.Fatal("the page's script holds no mcptrailFilter")
	}
	data, ok := dataBlocks(t, page)["report-data"]
	if !ok {
		t.Fatal("the page has no report-data block")
	}
	dir := t.TempDir()
	s := shipped{script: filepath.Join(dir, "script.js"), data: filepath.Join(dir, "report-data.json")}
	for path, text := range map[string]string{s.script: scripts[0][1], s.data: data} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// nodeOrSkip returns node's path; without node the test skips, except in CI.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed (.ci/run installs it with npm)")
		}
		t.Skip("node is not installed: the page's filter script is not checked against the Go filter")
	}
	return node
}

// jsOutput is what the harness prints.
type jsOutput struct {
	Results []jsResult `json:"results"`
	Lower   []string   `json:"lower"`
}

// runShipped runs the page's filter over the items, filters and strings.
func runShipped(t *testing.T, items map[string]jsItem, filters, lower []string) jsOutput {
	t.Helper()
	node, s := nodeOrSkip(t), shippedFilter(t)
	in, err := json.Marshal(map[string]any{"items": items, "filters": filters, "lower": lower})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", filterHarness, s.script, s.data)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got jsOutput
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's output %.200q: %v", out, err)
	}
	if len(got.Results) != len(filters) || len(got.Lower) != len(lower) {
		t.Fatalf("node answered %d filters and %d strings, want %d and %d", len(got.Results), len(got.Lower), len(filters), len(lower))
	}
	return got
}

// TestShippedFilterMatchesGo checks that the filter a rendered page ships
// (its script and its report-data spec, as the page carries them) parses
// and matches as internal/filter does: the same error for the same
// mistake, the same items for the same terms, hostile input included.
func TestShippedFilterMatchesGo(t *testing.T) {
	t.Parallel()
	items, filters := filterItems(), filterCases()
	got := runShipped(t, items, filters, nil)
	for i, text := range filters {
		var want jsResult
		if f, err := filter.Parse(text); err != nil {
			want.Err = err.Error()
		} else {
			for _, name := range slices.Sorted(mapKeys(items)) {
				if f.Match(items[name].goItem()) {
					want.Match = append(want.Match, name)
				}
			}
		}
		if diff := cmp.Diff(want, got.Results[i], cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("filter %.120q (-Go +script):\n%s", text, diff)
		}
	}
}

// TestShippedFilterCoversSpec checks the cases name every key of the spec
// and every value of its enums, so that a key added to filter.Spec is
// tried in the page's script too.
func TestShippedFilterCoversSpec(t *testing.T) {
	t.Parallel()
	all := strings.Join(filterCases(), " ")
	for _, k := range filter.Spec() {
		if !strings.Contains(all, k.Name+":") {
			t.Errorf("no case uses the key %s", k.Name)
		}
		for _, v := range k.Values {
			if !strings.Contains(all, k.Name+":"+v) {
				t.Errorf("no case uses %s:%s", k.Name, v)
			}
		}
	}
}

// TestShippedLowerMatchesGo checks the page's case folding against Go's on
// every code point, in blocks of 4096 (folding is per code point, so a
// block folds as its runes do): they may differ only where Go's Unicode
// tables, older than node's, assign no character (Cn).
func TestShippedLowerMatchesGo(t *testing.T) {
	t.Parallel()
	var blocks []string
	var b strings.Builder
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r < 0xd800 || r > 0xdfff {
			b.WriteRune(r)
		}
		if r%4096 == 4095 {
			blocks = append(blocks, b.String())
			b.Reset()
		}
	}
	got := runShipped(t, nil, nil, blocks)
	bad := 0
	for i, block := range blocks {
		in, js, gos := []rune(block), []rune(got.Lower[i]), []rune(strings.ToLower(block))
		if len(js) != len(in) {
			t.Errorf("block %d: the script folds %d code points into %d", i, len(in), len(js))
			continue
		}
		for k, r := range in {
			if js[k] != gos[k] && !unicode.Is(unicode.Cn, r) {
				if bad++; bad <= 20 {
					t.Errorf("U+%04X: the script lowers it to %+q, Go to %+q", r, js[k], gos[k])
				}
			}
		}
	}
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
