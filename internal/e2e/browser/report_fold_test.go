package browser_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// foldFacts is what TestReportFold reads of the page at one width.
type foldFacts struct {
	Overview    string   `json:"overview"`    // the overview's text
	OverviewEnd float64  `json:"overviewEnd"` // its bottom, px from the page's top
	FindingsTop float64  `json:"findingsTop"` // the findings table's top
	LedgerTop   float64  `json:"ledgerTop"`   // the ledger table's top
	Broken      []string `json:"broken"`      // names laid out on more than one line
	Overflow    float64  `json:"overflow"`    // px the page is wider than the window
	Count       string   `json:"count"`       // the filter's count
}

// TestReportFold opens the demo session's report at 1280x900 and at 800
// px wide: above the fold (900 px) stand the calls as a person counts them
// (9 calls, 5 more rounds, 1 server request), what failed, the questions
// by outcome and the findings by severity, and the findings and ledger
// tables start there; no method, tool or id breaks inside a word, and the
// page is no wider than the window.
func TestReportFold(t *testing.T) {
	home := t.TempDir()
	env := []string{"MCPTRAIL_HOME=" + home, "NO_COLOR=1"}
	mcptrail(t, env, "demo")
	report := filepath.Join(t.TempDir(), "demo.html")
	mcptrail(t, env, "export", "-T", "html", "-o", report)
	p := openPage(t)
	for _, width := range []int64{1280, 800} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			p.run(t, "resizing", chromedp.EmulateViewport(width, 900))
			p.load(t, report)
			f := eval[foldFacts](t, p, `(() => {
				const top = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top + scrollY : -1; };
				const ov = document.querySelector("#overview");
				const broken = [];
				// lines counts the lines a text is laid out on: its boxes'
				// tops, those closer than half a line counting once.
				const lines = (e) => {
					const tops = [];
					const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
					for (let n = w.nextNode(); n; n = w.nextNode()) {
						const r = document.createRange();
						r.selectNodeContents(n);
						for (const x of r.getClientRects()) if (x.width > 0) tops.push(x.top);
					}
					tops.sort((a, b) => a - b);
					return tops.filter((t, i) => i === 0 || t - tops[i - 1] > 6).length;
				};
				for (const e of document.querySelectorAll("#calls td, .wf-label, .overview .name, table.ledger a, .findings code")) {
					const n = lines(e);
					if (n > 1 && (!/\s/.test(e.textContent.trim()) || e.matches(".name, .wf-label, table.ledger a"))) broken.push(e.textContent);
				}
				return {overview: ov ? ov.innerText : "", overviewEnd: ov ? ov.getBoundingClientRect().bottom + scrollY : -1,
					findingsTop: top("table.findings"), ledgerTop: top("table.ledger"), broken: broken,
					overflow: document.documentElement.scrollWidth - innerWidth,
					count: document.querySelector("#filter-count").textContent};
			})()`)
			text := strings.Join(strings.Fields(f.Overview), " ")
			for _, want := range []string{"9 calls (5 more rounds), 1 server request", "1 failed", "tools/call get_weather",
				"6 questions asked", "5 accepted · 1 declined · 0 cancelled · 0 pending", "2 findings", "1 error · 1 warning"} {
				if !strings.Contains(text, want) {
					t.Errorf("the overview does not say %q: %q", want, text)
				}
			}
			if f.OverviewEnd < 0 || f.OverviewEnd > 900 {
				t.Errorf("the overview ends at %.0f px, below the fold (900 px)", f.OverviewEnd)
			}
			if f.FindingsTop < 0 || f.FindingsTop > 900 {
				t.Errorf("the findings table starts at %.0f px, below the fold", f.FindingsTop)
			}
			if f.LedgerTop < 0 || f.LedgerTop > f.FindingsTop+600 {
				t.Errorf("the ledger table starts at %.0f px, far below the findings (%.0f px)", f.LedgerTop, f.FindingsTop)
			}
			if len(f.Broken) > 0 {
				t.Errorf("names broken across lines at %d px: %q", width, f.Broken)
			}
			if f.Overflow > 0 {
				t.Errorf("the page is %.0f px wider than the window at %d px", f.Overflow, width)
			}
			if f.Count != "9 of 9 calls, 1 of 1 server request" {
				t.Errorf("the filter counts %q, want 9 of 9 calls, 1 of 1 server request", f.Count)
			}
			p.screenshot(t, fmt.Sprintf("demo-report-%d", width))
		})
	}
}
