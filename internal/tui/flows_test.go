package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// flow is the app running in a teatest program, with the model it last
// handed a message to.
type flow struct {
	t      *testing.T
	tm     *teatest.TestModel
	latest atomic.Value // App
}

// sessionsDir writes the named fixtures as finished captures into a new
// sessions directory, the first the oldest.
func sessionsDir(t *testing.T, names ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i, name := range names {
		capt := tuitest.Capture(t, name, tuitest.ReadTranscript(t, tuitest.Transcript(name)), true)
		file := filepath.Join(dir, "2026080"+string(rune('1'+i))+"T120000.000000Z-"+name+"-"+strings.Repeat(string(rune('a'+i)), 16)+".jsonl")
		if err := os.WriteFile(file, capt, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func startFlow(t *testing.T, opts Options, w, h int) *flow {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if opts.Source == nil {
		opts.Source = &source.Options{Rules: rules.Default()}
	}
	f := &flow{t: t}
	a := New(ctx, opts)
	f.latest.Store(a)
	f.tm = teatest.NewTestModel(t, a, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
			if a, ok := m.(App); ok {
				f.latest.Store(a)
			}
			return msg
		})))
	return f
}

// app is the model as the program last had it.
func (f *flow) app() App { return f.latest.Load().(App) }

// waitFor polls the app until ok holds (the program gets a tick a second,
// so the model is at most that stale); it fails after 10 s.
func (f *flow) waitFor(what string, ok func(App) bool) App {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		a := f.app()
		if ok(a) {
			return a
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("waiting for %s; the screen is:\n%s", what, a.Render())
		}
		time.Sleep(10 * time.Millisecond)
		f.tm.Send(nil) // a message, so the filter sees the newest model
	}
}

func (f *flow) key(s string) { f.tm.Send(press(s)) }

// quit ends the program and returns its final model.
func (f *flow) quit() App {
	f.t.Helper()
	if err := f.tm.Quit(); err != nil {
		f.t.Fatal(err)
	}
	return f.tm.FinalModel(f.t, teatest.WithFinalTimeout(10*time.Second)).(App)
}

// TestFlowHubFilterInspect: hub → open → filter elicit:decline → inspector
// → back.
func TestFlowHubFilterInspect(t *testing.T) {
	f := startFlow(t, Options{Dir: sessionsDir(t, "legacy-2025-11-25", "elicit-seed")}, 120, 40)
	f.waitFor("the hub to list both sessions", func(a App) bool {
		return strings.Contains(a.Render(), "elicit-seed") && strings.Contains(a.Render(), "legacy-2025-11-25")
	})
	// Both start at tuitest.T0: pick elicit-seed with the hub's filter.
	f.key("/")
	f.tm.Type("elicit-seed")
	f.key("enter")
	f.waitFor("the hub's filter", func(a App) bool { return a.hub.Filter() == "elicit-seed" && !a.hub.Capturing() })
	f.key("enter")
	f.waitFor("elicit-seed to open", func(a App) bool {
		return a.hasSess && a.sess.loaded && a.sess.data.Snap.Session.Label == "elicit-seed"
	})
	f.key("/")
	f.tm.Type("elicit:decline")
	f.key("enter")
	a := f.waitFor("the filter to apply", func(a App) bool { return a.sess.stream.Filter() == "elicit:decline" })
	if !strings.Contains(a.Render(), "login_legacy") || strings.Contains(a.Render(), "create_account") {
		t.Errorf("elicit:decline shows other calls than login_legacy:\n%s", a.Render())
	}
	f.key("enter")
	f.waitFor("the inspector", func(a App) bool {
		return a.sess.hasInsp && strings.Contains(a.Render(), `"login_legacy"`)
	})
	f.key("esc")
	f.waitFor("the stream again", func(a App) bool { return !a.sess.hasInsp })
	a = f.quit()
	if a.sess.stream.Filter() != "elicit:decline" || a.sess.stream.Selected() != 4 {
		t.Errorf("back on the stream: filter %q, call %d selected; want elicit:decline, call 4",
			a.sess.stream.Filter(), a.sess.stream.Selected())
	}
}

// TestFlowLedgerJump: ledger overlay → Enter lands on the root call.
func TestFlowLedgerJump(t *testing.T) {
	dir := sessionsDir(t, "legacy-2025-11-25")
	f := startFlow(t, Options{Path: filepath.Join(dir, mustOnly(t, dir))}, 120, 40)
	f.waitFor("the session", func(a App) bool { return a.hasSess && a.sess.loaded && a.sess.ended })
	f.key("l")
	f.waitFor("the ledger", func(a App) bool { return a.sess.ovKind != 0 && strings.Contains(a.Render(), "Elicitation ledger") })
	f.key("j") // the second row: its root is book_table too
	f.key("enter")
	a := f.waitFor("the stream", func(a App) bool { return a.sess.ovKind == 0 })
	c := a.sess.data.Snap.Calls.At(a.sess.stream.Selected())
	if c.Method != "tools/call" || c.Target != "book_table" {
		t.Errorf("Enter on a ledger row selects %s %s, want the root call tools/call book_table", c.Method, c.Target)
	}
	f.quit()
}

// TestFlowBadFilterAndResize: a bad filter shows an inline error and keeps
// the rows; a resize to 40×10 draws without a panic.
func TestFlowBadFilterAndResize(t *testing.T) {
	dir := sessionsDir(t, "elicit-seed")
	f := startFlow(t, Options{Path: filepath.Join(dir, mustOnly(t, dir))}, 120, 40)
	f.waitFor("the session", func(a App) bool { return a.hasSess && a.sess.loaded && a.sess.ended })
	f.key("/")
	f.tm.Type("status:okk")
	f.key("enter")
	a := f.waitFor("the inline error", func(a App) bool { return strings.Contains(a.Render(), `bad filter: status:"okk" at column 8`) })
	if !strings.Contains(a.Render(), "sync_calendar") {
		t.Errorf("a bad filter hid the rows:\n%s", a.Render())
	}
	f.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	a = f.waitFor("the small size", func(a App) bool { return a.w == 40 && a.h == 10 })
	tuitest.CheckTerminalSafe(t, a.Render(), 40, 10)
	f.key("esc") // the bar keeps the focus after a bad filter
	f.waitFor("the bar to let go", func(a App) bool { return !a.capturing() })
	f.key("l")
	a = f.waitFor("the ledger, small", func(a App) bool { return a.sess.ovKind != 0 })
	tuitest.CheckTerminalSafe(t, a.Render(), 40, 10)
	f.quit()
}

// mustOnly is the name of the only file in dir.
func mustOnly(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil || len(es) != 1 {
		t.Fatalf("%s: %v, %d files", dir, err, len(es))
	}
	return es[0].Name()
}
