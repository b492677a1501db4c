package browser_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// maxReport100k is the size bound of the 100k-call report (issue 28 item
// 9: under 15 MB); the load and keystroke figures are logged, not judged.
const maxReport100k = 15 << 20

// TestReport100k exports a capture of 100,000 tools/call and opens the
// report: it must stay under maxReport100k, load with no error and no
// request, keep the calls table reachable (the timeline above it short),
// filter, and open a call's frames. It logs the figures issue 28 asks for:
// the size, the load time (navigation to a filled calls table), the time
// of one filter keystroke (input event to the table redrawn) and the
// pixels of timeline before the calls table.
func TestReport100k(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100k-call report: not in -short")
	}
	p := openPage(t)
	report, st := bigReport(t)
	start := time.Now()
	p.load(t, report)
	load := time.Since(start)
	p.run(t, "waiting for the filter's index", chromedp.WaitReady(chromedp.CSS("#calls[data-indexed]")))
	indexed := time.Since(start)
	rows := eval[int](t, p, `+document.querySelector("#calls").dataset.total`)
	if rows != 100_000 {
		t.Errorf("the calls table has %d rows, want 100000", rows)
	}
	timeline := eval[float64](t, p, `document.querySelector("#calls-section").getBoundingClientRect().top -
		document.querySelector("#timeline").getBoundingClientRect().top`)
	inDOM := p.count(t, "#calls tr.call")

	// One keystroke: the time from the input event to the table redrawn,
	// for each of a few queries typed one character at a time; the median.
	p.run(t, "focusing the filter", chromedp.Focus(chromedp.CSS("#filter")))
	if os.Getenv("MCPTRAIL_KEYLOG") != "" {
		eval[bool](t, p, `(window.__keylog = [], true)`)
	}
	keys := eval[[]float64](t, p, `(() => {
		const f = document.querySelector("#filter"), out = [];
		for (const q of ["tool:tool-1", "status:error", "slow:>5ms", "answer"]) {
			f.value = "";
			f.dispatchEvent(new Event("input", {bubbles: true}));
			for (let i = 1; i <= q.length; i++) {
				f.value = q.slice(0, i);
				const t0 = performance.now();
				f.dispatchEvent(new Event("input", {bubbles: true}));
				const t1 = performance.now();
				document.body.offsetHeight; // the layout of the redrawn table
				out.push(performance.now() - t0);
				if (window.__keylog) window.__keylog.push(q.slice(0, i) + "=" + (t1 - t0).toFixed(1) + "+" + (performance.now() - t1).toFixed(1));
			}
		}
		f.value = "";
		f.dispatchEvent(new Event("input", {bubbles: true}));
		return out.sort((a, b) => a - b);
	})()`)
	median, worst := keys[len(keys)/2], keys[len(keys)-1]
	if os.Getenv("MCPTRAIL_KEYLOG") != "" {
		t.Logf("keystrokes: %v", eval[[]string](t, p, `window.__keylog`))
	}
	t.Logf("100k report: %.1f MiB, load %v (filter indexed at %v), keystroke median %.1fms worst %.1fms, %.0f px of timeline before the calls table, %d rows in the DOM",
		float64(st.Size())/(1<<20), load.Round(time.Millisecond), indexed.Round(time.Millisecond), median, worst, timeline, inDOM)
	if st.Size() > maxReport100k {
		t.Errorf("the 100k-call report is %d bytes, over the bound of %d", st.Size(), maxReport100k)
	}
	if timeline > 900 {
		t.Errorf("%.0f px of timeline before the calls table: a reader cannot reach the calls", timeline)
	}
	// A keystroke draws the first page; the rest is counted while the page
	// is idle: the time to the full count, logged too.
	ctx, cancel := p.timed()
	defer cancel()
	counted, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`new Promise((done) => {
		const f = document.querySelector("#filter"), calls = document.querySelector("#calls");
		const t0 = performance.now();
		f.value = "tool:tool-3";
		f.dispatchEvent(new Event("input", {bubbles: true}));
		(function wait() {
			if (calls.dataset.counting === undefined) done(performance.now() - t0);
			else setTimeout(wait, 1);
		})();
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("timing the full count: %v", err)
	}
	t.Logf("100k report: tool:tool-3 counted over every call in %.1fms", counted)
	p.filter(t, "tool:tool-3")
	p.run(t, "waiting for the count", chromedp.WaitReady(chromedp.CSS("#calls:not([data-counting])")))
	if shown := eval[int](t, p, `+document.querySelector("#calls").dataset.shown`); shown == 0 || shown >= rows {
		t.Errorf("tool:tool-3 shows %d of %d calls", shown, rows)
	}
	p.filter(t, "")
	expandFirstCall(t, p)
	if errs := p.problems(); len(errs) > 0 {
		t.Errorf("the report reported errors: %q", errs)
	}
	if reqs := p.foreignRequests("file://" + report); len(reqs) > 0 {
		t.Errorf("the report made network requests: %q", reqs)
	}
}

// bigReport exports a capture of 100,000 tools/call as an HTML report and
// returns its path and file info.
func bigReport(t testing.TB) (string, os.FileInfo) {
	t.Helper()
	dir := t.TempDir()
	capPath := filepath.Join(dir, "big.jsonl")
	tuitest.CallsCapture(t, capPath, 100_000)
	report := filepath.Join(dir, "big.html")
	mcptrail(t, nil, "export", "-T", "html", "-o", report, capPath)
	st, err := os.Stat(report)
	if err != nil {
		t.Fatal(err)
	}
	return report, st
}
