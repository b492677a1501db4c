package browser_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// browserPath returns the browser the tests drive: $MCPTRAIL_CHROMIUM
// (.ci/run sets it to Debian's chromium); without it the tests skip, or
// fail under CI=true.
func browserPath(t testing.TB) string {
	t.Helper()
	return testbin.Heavy(t, testbin.ChromiumEnv, "a browser (Debian's chromium)",
		"apt-get install chromium; .ci/run sets it to $(command -v chromium)")
}

// page is one browser tab and what it reported: console errors, uncaught
// exceptions, log entries of level error, and every network request.
type page struct {
	ctx context.Context

	mu       sync.Mutex
	errors   []string
	requests []string
}

// openPage starts a headless browser and a tab that records what the
// page reports; both end with the test.
func openPage(t testing.TB) *page {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browserPath(t)),
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
		chromedp.UserDataDir(t.TempDir()),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	p := &page{ctx: ctx}
	if err := chromedp.Listen(ctx, p.observe); err != nil {
		t.Fatalf("starting %s: %v", browserPath(t), err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// timed returns a context for one step: a minute at most.
func (p *page) timed() (context.Context, context.CancelFunc) {
	return context.WithTimeout(p.ctx, time.Minute)
}

func (p *page) observe(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			p.errors = append(p.errors, "console."+string(ev.Type)+": "+remoteArgs(ev.Args))
		}
	case *runtime.EventExceptionThrown:
		p.errors = append(p.errors, "exception: "+exceptionText(ev.ExceptionDetails))
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError {
			p.errors = append(p.errors, fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, ev.Request.URL)
	}
}

func remoteArgs(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if len(a.Value) > 0 {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return d.Text
}

// load opens the file at path and waits until the report's script has
// filled the calls table (it carries data-total).
func (p *page) load(t testing.TB, path string) {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := p.timed()
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate("file://"+abs),
		chromedp.WaitReady(chromedp.CSS("#calls[data-total]")),
	); err != nil {
		t.Fatalf("loading %s: %v (errors: %q)", path, err, p.problems())
	}
}

// problems returns what the page reported as errors so far.
func (p *page) problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// foreignRequests returns the requests the page made other than for the
// document at self.
func (p *page) foreignRequests(self string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, u := range p.requests {
		if u != self {
			out = append(out, u)
		}
	}
	return out
}

// eval evaluates the JavaScript expression js and returns its value.
func eval[T any](t testing.TB, p *page, js string) T {
	t.Helper()
	ctx, cancel := p.timed()
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// run runs actions, failing t on error.
func (p *page) run(t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := p.timed()
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v (errors: %q)", what, err, p.problems())
	}
}

// filter replaces the filter box's text with q, as typed.
func (p *page) filter(t testing.TB, q string) {
	t.Helper()
	p.run(t, "typing "+q+" in the filter",
		chromedp.Evaluate[chromedp.Void](`(f => { f.value = ""; f.dispatchEvent(new Event("input", {bubbles: true})) })(document.querySelector("#filter"))`),
		chromedp.SendKeys(chromedp.CSS("#filter"), q),
	)
}

// screenshot writes the page as name.png into the test's artifact
// directory (go test -artifacts keeps it).
func (p *page) screenshot(t *testing.T, name string) {
	t.Helper()
	ctx, cancel := p.timed()
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("taking a screenshot: %v", err)
	}
	path := filepath.Join(t.ArtifactDir(), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// count returns how many elements match the CSS selector sel.
func (p *page) count(t testing.TB, sel string) int {
	t.Helper()
	return eval[int](t, p, fmt.Sprintf("document.querySelectorAll(%q).length", sel))
}

// expandAll clicks every collapsed call row, as a user expanding them one
// by one would.
func expandAll() chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`for (const tr of [...document.querySelectorAll("#calls tr.call")]) {
		const next = tr.nextElementSibling;
		if (!next || !next.classList.contains("detail")) tr.click();
	}`)
}
