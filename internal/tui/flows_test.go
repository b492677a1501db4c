package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// flow is the app running in a teatest program. A screen model is not
// safe to read while the program updates it (the stream's row index is
// shared between copies), so the test looks at the app only on the
// program's own goroutine: probe sends a message that the program's event
// filter answers with the model of that moment.
type flow struct {
	t  *testing.T
	tm *teatest.TestModel
}

// probeMsg asks the event filter to run fn on the current model.
type probeMsg struct {
	fn   func(App)
	done chan struct{}
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
	f.tm = teatest.NewTestModel(t, New(ctx, opts), teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
			p, ok := msg.(probeMsg)
			if !ok {
				return msg
			}
			p.fn(m.(App))
			close(p.done)
			return nil
		})))
	return f
}

// probe runs fn on the program's goroutine with the model of the moment.
func (f *flow) probe(fn func(App)) {
	f.t.Helper()
	done := make(chan struct{})
	f.tm.Send(probeMsg{fn: fn, done: done})
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		f.t.Fatal("the program did not answer a probe")
	}
}

// render is the screen of the moment.
func (f *flow) render() string {
	var s string
	f.probe(func(a App) { s = a.Render() })
	return s
}

// waitFor probes the app until ok holds; it fails after 10 s, showing the
// screen.
func (f *flow) waitFor(what string, ok func(App) bool) {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var done bool
		var screen string
		f.probe(func(a App) { done, screen = ok(a), a.Render() })
		if done {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("waiting for %s; the screen is:\n%s", what, screen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (f *flow) key(s string) { f.tm.Send(tuitest.Press(s)) }

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
	f.waitFor("the filter to apply", func(a App) bool { return a.sess.stream.Filter() == "elicit:decline" })
	if screen := f.render(); !strings.Contains(screen, "login_legacy") || strings.Contains(screen, "create_account") {
		t.Errorf("elicit:decline shows other calls than login_legacy:\n%s", screen)
	}
	f.key("enter")
	f.waitFor("the inspector", func(a App) bool {
		return a.inspecting() && strings.Contains(a.Render(), `"login_legacy"`)
	})
	f.key("esc")
	f.waitFor("the stream again", func(a App) bool { return !a.inspecting() })
	a := f.quit()
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
	f.waitFor("the ledger", func(a App) bool { return a.overlayKind() != "" && strings.Contains(a.Render(), "Elicitation ledger") })
	f.key("j") // the second row: its root is book_table too
	f.key("enter")
	f.waitFor("the stream", func(a App) bool { return a.overlayKind() == "" })
	a := f.quit()
	c := a.sess.data.Snap.Calls.At(a.sess.stream.Selected())
	if c.Method != "tools/call" || c.Target != "book_table" {
		t.Errorf("Enter on a ledger row selects %s %s, want the root call tools/call book_table", c.Method, c.Target)
	}
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
	f.waitFor("the inline error", func(a App) bool { return strings.Contains(a.Render(), `bad filter: status:"okk" at column 8`) })
	if screen := f.render(); !strings.Contains(screen, "sync_calendar") {
		t.Errorf("a bad filter hid the rows:\n%s", screen)
	}
	f.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	f.waitFor("the small size", func(a App) bool { return a.w == 40 && a.h == 10 })
	tuitest.CheckTerminalSafe(t, f.render(), 40, 10)
	f.key("esc") // the bar keeps the focus after a bad filter
	f.waitFor("the bar to let go", func(a App) bool { return !a.capturing() })
	f.key("l")
	f.waitFor("the ledger, small", func(a App) bool { return a.overlayKind() != "" })
	tuitest.CheckTerminalSafe(t, f.render(), 40, 10)
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
