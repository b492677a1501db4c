package htmlexport

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/store"
)

// fixtures are the corpus transcripts the store's own tests read.
var fixtures = []string{"../../store/testdata/elicit-seed.transcript.jsonl", "../../store/testdata/legacy-2025-11-25.transcript.jsonl"}

// TestContract checks the page against the DOM contract the browser test
// relies on (docs/export-html.md): the section ids, the filter box, the
// calls table's counts, one ledger row per store row in order with its
// outcome, one finding row per finding with its rule.
func TestContract(t *testing.T) {
	t.Parallel()
	for _, path := range fixtures {
		t.Run(path[strings.LastIndex(path, "/")+1:], func(t *testing.T) {
			t.Parallel()
			page, snap := render(t, transcriptCapture(t, path, "fixture"))
			rows := 0
			for i := range snap.Calls.Len() {
				if c := snap.Calls.At(i); c.Operation < 0 || c.Round <= 1 {
					rows++
				}
			}
			n := strconv.Itoa(rows)
			for _, want := range []string{
				`<header id="summary">`, `<section id="timeline">`, `<input id="filter" type="search"`, `<div id="filter-error"`,
				`<table id="calls" data-shown="` + n + `" data-total="` + n + `">`, `<th data-sort="duration"`,
				`<section id="ledger">`, `<section id="findings">`, `<section id="catalog">`, `<section id="summary-tools">`,
				`<link rel="icon" href="data:,">`, `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`,
				`@media (prefers-color-scheme: dark)`, `@media print`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %s", want)
				}
			}
			var wantActions, gotActions []string
			for _, r := range snap.Ledger.All() {
				wantActions = append(wantActions, outcome(&r))
			}
			for _, m := range regexp.MustCompile(`<tr class="ledger-row" data-action="([^"]*)" data-call="(-?\d+)"`).FindAllStringSubmatch(page, -1) {
				gotActions = append(gotActions, m[1])
			}
			if len(wantActions) == 0 {
				t.Fatal("the fixture has no ledger row")
			}
			if diff := cmp.Diff(wantActions, gotActions); diff != "" {
				t.Errorf("ledger rows (-store +page):\n%s", diff)
			}
			var wantRules, gotRules []string
			for f := range snap.Findings.All() { // each with its capture line, as SARIF has it
				line := "-"
				if f.Line > 0 {
					line = strconv.Itoa(f.Line)
				}
				wantRules = append(wantRules, f.Rule+" line "+line)
			}
			for _, m := range regexp.MustCompile(`<tr class="finding [^"]*" data-rule="([^"]*)">.*?<td class="num">([^<]*)</td></tr>`).FindAllStringSubmatch(page, -1) {
				gotRules = append(gotRules, m[1]+" line "+m[2])
			}
			if diff := cmp.Diff(wantRules, gotRules); diff != "" {
				t.Errorf("finding rows (-store +page):\n%s", diff)
			}
			selfContained(t, page)
		})
	}
}

// selfContained fails t when the page's markup could make any request:
// a src attribute, or a link that is not to the page itself or data:.
func selfContained(t *testing.T, page string) {
	t.Helper()
	markup := stripBlocks(page)
	if m := regexp.MustCompile(`(?i)\ssrc\s*=`).FindString(markup); m != "" {
		t.Errorf("the page has a src attribute")
	}
	for _, m := range regexp.MustCompile(`(?i)\shref\s*=\s*"([^"]*)"`).FindAllStringSubmatch(markup, -1) {
		if !strings.HasPrefix(m[1], "#") && m[1] != "data:," {
			t.Errorf("the page links to %q", m[1])
		}
	}
	if strings.Contains(strings.ToLower(markup), "@import") || strings.Contains(markup, "url(") {
		t.Errorf("the stylesheet loads something")
	}
}

// TestSummaryCountsOperations checks that the per-tool table counts an
// MRTR operation once with its rounds beside it, as the store does.
func TestSummaryCountsOperations(t *testing.T) {
	t.Parallel()
	page, snap := render(t, transcriptCapture(t, fixtures[0], "fixture"))
	var multi *store.Stat
	for i := range snap.Summary.Tools {
		if s := &snap.Summary.Tools[i]; s.Rounds > s.Count {
			multi = s
			break
		}
	}
	if multi == nil {
		t.Fatal("the fixture has no tool called over several rounds")
	}
	want := "<tr><td>" + multi.Name + `</td><td class="num">` + strconv.Itoa(multi.Count) + `</td><td class="num">` + strconv.Itoa(multi.Rounds) + "</td>"
	if !strings.Contains(page, want) {
		t.Errorf("the per-tool table lacks %s", want)
	}
}

// TestFramesByCall checks that each call's request and answer point at
// frames-data entries of the right seq, which is what expanding shows.
func TestFramesByCall(t *testing.T) {
	t.Parallel()
	page, snap := render(t, transcriptCapture(t, fixtures[0], "fixture"))
	blocks := dataBlocks(t, page)
	lines := strings.Split(blocks["frames-data"], "\n")
	var data struct {
		Calls [][]any `json:"calls"`
	}
	if err := jsonUnmarshal(blocks["report-data"], &data); err != nil {
		t.Fatal(err)
	}
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		for k, seq := range map[int]uint64{13: c.RequestSeq, 14: c.ResponseSeq} {
			line := int(data.Calls[i][k].(float64))
			if seq == 0 {
				if line != -1 {
					t.Errorf("call %d member %d = %d, want -1", i, k, line)
				}
				continue
			}
			if want := "[" + strconv.FormatUint(seq, 10) + ","; !strings.HasPrefix(lines[line+1], want) {
				t.Errorf("call %d member %d points at %.40s, want seq %d", i, k, lines[line+1], seq)
			}
		}
	}
}
