package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// mcptrail runs the binary with args and env added to the environment,
// fails t unless it succeeds with nothing on stderr, and returns stdout.
func mcptrail(t testing.TB, env []string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail %s: %v\nstderr:\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// ledgerRow is what the browser test compares of a ledger row.
type ledgerRow struct {
	Message string `json:"message"`
	Mode    string `json:"mode"`
	Action  string `json:"action"`
}

// exportLedger returns the elicitations of the JSON export of the capture
// (or session) named by args.
func exportLedger(t testing.TB, env []string, args ...string) []ledgerRow {
	t.Helper()
	var doc struct {
		Elicitations []ledgerRow `json:"elicitations"`
	}
	if err := json.Unmarshal(mcptrail(t, env, append([]string{"export"}, args...)...), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Elicitations
}

// shownLedger returns the ledger rows the report displays.
func shownLedger(t testing.TB, p *page) []ledgerRow {
	t.Helper()
	return eval[[]ledgerRow](t, p, `[...document.querySelectorAll("#ledger tr.ledger-row")]
		.filter(tr => !tr.hidden && tr.offsetParent !== null)
		.map(tr => ({message: tr.textContent, mode: "", action: tr.dataset.action}))`)
}

// checkLedger fails t unless shown are exactly want: the same actions in
// the same order, each row showing its question.
func checkLedger(t testing.TB, what string, shown, want []ledgerRow) {
	t.Helper()
	if len(shown) != len(want) {
		t.Fatalf("%s: the report shows %d ledger rows, the export has %d: %q", what, len(shown), len(want), shown)
	}
	for i := range want {
		if shown[i].Action != want[i].Action || !showsText(shown[i].Message, want[i].Message) {
			t.Errorf("%s: ledger row %d shows action %q text %q, want action %q and the question %q",
				what, i, shown[i].Action, shown[i].Message, want[i].Action, want[i].Message)
		}
	}
}

// TestReportDemo opens the demo session's report: it loads with no error
// and no request, its ledger has exactly the export's rows, the filter
// elicit:decline leaves exactly the declined rows, and a call expands into
// its JSON.
func TestReportDemo(t *testing.T) {
	home := t.TempDir()
	env := []string{"MCPTRAIL_HOME=" + home, "NO_COLOR=1"}
	mcptrail(t, env, "demo")
	want := exportLedger(t, env)
	if len(want) == 0 {
		t.Fatal("the demo session's export has no elicitations")
	}
	report := filepath.Join(t.TempDir(), "demo.html")
	mcptrail(t, env, "export", "-T", "html", "-o", report)

	p := openPage(t)
	p.load(t, report)
	checkLedger(t, "on load", shownLedger(t, p), want)

	total := eval[int](t, p, `+document.querySelector("#calls").dataset.total`)
	if total == 0 || p.count(t, "#calls tr.call") == 0 {
		t.Fatalf("the calls table is empty (data-total %d)", total)
	}
	expandFirstCall(t, p)
	p.screenshot(t, "demo-report")

	p.filter(t, "elicit:decline")
	var declined []ledgerRow
	for _, r := range want {
		if r.Action == "decline" {
			declined = append(declined, r)
		}
	}
	if len(declined) == 0 {
		t.Fatal("the demo session has no declined question")
	}
	checkLedger(t, "after elicit:decline", shownLedger(t, p), declined)
	shown := eval[int](t, p, `+document.querySelector("#calls").dataset.shown`)
	if shown == 0 || shown >= total {
		t.Errorf("elicit:decline shows %d of %d calls, want some but not all", shown, total)
	}
	p.screenshot(t, "demo-report-declined")

	if errs := p.problems(); len(errs) > 0 {
		t.Errorf("the report reported errors: %q", errs)
	}
	if reqs := p.foreignRequests("file://" + report); len(reqs) > 0 {
		t.Errorf("the report made network requests: %q", reqs)
	}
}

// expandFirstCall clicks the first call row and checks that its detail row
// shows the call's frames as JSON.
func expandFirstCall(t testing.TB, p *page) {
	t.Helper()
	p.run(t, "expanding the first call", chromedp.Click(chromedp.CSS("#calls tr.call"), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS("#calls tr.detail pre.json")))
	texts := eval[[]string](t, p, `[...document.querySelectorAll("#calls tr.detail pre.json")].map(e => e.textContent)`)
	if len(texts) == 0 {
		t.Fatal("the expanded call shows no JSON")
	}
	for _, s := range texts {
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Errorf("an expanded frame is not JSON (%v): %q", err, s)
		} else if v["jsonrpc"] != "2.0" {
			t.Errorf("an expanded frame is not a JSON-RPC message: %q", s)
		}
	}
	if p.count(t, "#calls tr.detail pre.json span") == 0 {
		t.Error("the expanded JSON is not syntax coloured (no spans)")
	}
}

// showsText reports whether the text of an element shows s: verbatim, or
// with its line and paragraph separators and bidi controls written as
// visible \uXXXX escapes (how the report shows them inert).
func showsText(text, s string) bool {
	if strings.Contains(text, s) {
		return true
	}
	var b strings.Builder
	for _, r := range s {
		if r == '\u2028' || r == '\u2029' || r == '\u061c' || r == '\u200e' || r == '\u200f' ||
			(r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return strings.Contains(text, b.String())
}
