package tui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// update applies msgs in order and returns the app and the last command.
func update(t testing.TB, a App, msgs ...tea.Msg) (App, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, msg := range msgs {
		var m tea.Model
		m, cmd = a.Update(msg)
		a = m.(App)
	}
	return a, cmd
}

// opened is an app over the elicit-seed fixture, as Init and the source
// would leave it once the first Data arrived.
func opened(t *testing.T, opts Options) App {
	t.Helper()
	capt := tuitest.Capture(t, "elicit-seed", tuitest.ReadTranscript(t, tuitest.Transcript("elicit-seed")), true)
	src, err := source.Read(context.Background(), bytes.NewReader(capt), "", &source.Options{Rules: rules.Default()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	opts.Stdin = bytes.NewReader(nil)
	a := New(context.Background(), opts)
	a, _ = update(t, a, tea.WindowSizeMsg{Width: 80, Height: 24}, openedMsg{gen: 1, src: src, name: "standard input"})
	d, ok := <-src.Updates()
	if !ok {
		t.Fatal("source delivered nothing")
	}
	a, _ = update(t, a, dataMsg{gen: 1, d: d, ok: true})
	if !a.hasSess || !a.sess.loaded {
		t.Fatal("session not loaded")
	}
	return a
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// overlayKind is the kind of the overlay on top of a's stack, "" for none.
func (a App) overlayKind() overlay.Kind {
	if l, ok := a.stack.top().(overlayLayer); ok && !l.modal {
		return l.ov.Kind()
	}
	return ""
}

// inspecting reports whether an inspector is on a's stack.
func (a App) inspecting() bool {
	for _, l := range a.stack {
		if _, ok := l.(inspectorLayer); ok {
			return true
		}
	}
	return false
}

// helping reports whether the help is on top of a's stack.
func (a App) helping() bool {
	l, ok := a.stack.top().(overlayLayer)
	return ok && l.modal
}

// TestOverlayKeysToggle checks every registered overlay's key: it opens
// the overlay, pressed again closes it, esc closes it; another overlay's
// key replaces it; over the inspector, closing it shows the inspector.
func TestOverlayKeysToggle(t *testing.T) {
	a := opened(t, Options{})
	specs := overlay.Specs()
	for i, s := range specs {
		k := s.Key.Keys()[0]
		b, _ := update(t, a, tuitest.Press(k))
		if b.overlayKind() != s.Kind {
			t.Errorf("%s: overlay %q, want %q", k, b.overlayKind(), s.Kind)
		}
		b, _ = update(t, b, tuitest.Press(k))
		if b.overlayKind() != "" {
			t.Errorf("%s twice: overlay %q still up", k, b.overlayKind())
		}
		b, _ = update(t, a, tuitest.Press(k), tuitest.Press("esc"))
		if b.overlayKind() != "" {
			t.Errorf("%s then esc: overlay %q still up", k, b.overlayKind())
		}
		next := specs[(i+1)%len(specs)]
		b, _ = update(t, a, tuitest.Press(k), tuitest.Press(next.Key.Keys()[0]), tuitest.Press("esc"))
		if b.overlayKind() != "" || len(b.stack) != 0 {
			t.Errorf("%s, %s, esc: overlay %q up, %d screens on the stack; want the stream", k, next.Kind, b.overlayKind(), len(b.stack))
		}
		b, _ = update(t, a, ui.InspectMsg{Call: 1}, tuitest.Press(k), tuitest.Press("esc"))
		if !b.inspecting() || b.overlayKind() != "" {
			t.Errorf("inspector, %s, esc: inspector %v, overlay %q; want the inspector", k, b.inspecting(), b.overlayKind())
		}
	}
}

// TestOverlayKeysFree checks that no overlay's key is one of the app's
// own over a session, which it would be shadowed by, or one of the
// stream's or the inspector's, which it would shadow.
func TestOverlayKeysFree(t *testing.T) {
	a := opened(t, Options{})
	k := a.keys
	taken := map[string]string{}
	take := func(who string, bs []key.Binding) {
		for _, b := range bs {
			for _, s := range b.Keys() {
				taken[s] = who
			}
		}
	}
	take("the app's", []key.Binding{k.Quit, k.ForceQuit, k.Back, k.Help, k.Export})
	take("the stream's", a.sess.stream.Bindings())
	a, _ = update(t, a, ui.InspectMsg{Call: 1})
	take("the inspector's", a.stack.top().help().Bindings)
	for _, s := range overlay.Specs() {
		for _, name := range s.Key.Keys() {
			if who, ok := taken[name]; ok {
				t.Errorf("overlay %s's key %q is %s", s.Kind, name, who)
			}
		}
	}
}

func TestJumpClosesOverlayAndInspector(t *testing.T) {
	a := opened(t, Options{})
	a, _ = update(t, a, ui.InspectMsg{Call: 1})
	if !a.inspecting() {
		t.Fatal("InspectMsg opened no inspector")
	}
	a, _ = update(t, a, tuitest.Press("l"), ui.JumpMsg{Call: 2})
	if a.inspecting() || a.overlayKind() != "" {
		t.Errorf("after JumpMsg: inspector %v, overlay %q; want the stream", a.inspecting(), a.overlayKind())
	}
	if a.sess.stream.Selected() != 2 {
		t.Errorf("stream selects call %d, want 2", a.sess.stream.Selected())
	}
	// An index the session does not have opens nothing.
	if b, _ := update(t, a, ui.InspectMsg{Call: 99}); b.inspecting() {
		t.Error("InspectMsg{99} opened an inspector on a 6-call session")
	}
}

func TestQuitHelpAndBack(t *testing.T) {
	a := opened(t, Options{})
	if _, cmd := update(t, a, tuitest.Press("q")); !isQuit(cmd) {
		t.Error("q does not quit")
	}
	if _, cmd := update(t, a, tuitest.Press("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c does not quit")
	}
	b, _ := update(t, a, tuitest.Press("?"))
	if !b.helping() {
		t.Error("? shows no help")
	}
	b, cmd := update(t, b, tuitest.Press("q"))
	if cmd == nil {
		t.Fatal("q in the help does nothing")
	}
	msg := cmd()
	if _, quit := msg.(tea.QuitMsg); quit {
		t.Fatal("q in the help quits")
	}
	if b, _ = update(t, b, msg); b.helping() {
		t.Error("q in the help leaves the help up")
	}
	// Without a hub, esc over the stream leaves the session open.
	if b, _ := update(t, a, tuitest.Press("esc")); !b.hasSess {
		t.Error("esc closed the only session")
	}
}

func TestStaleMessagesIgnored(t *testing.T) {
	a := opened(t, Options{})
	before := a.sess.data.Gen
	a, _ = update(t, a, dataMsg{gen: 7, d: ui.Data{Gen: 99}, ok: true})
	if a.sess.data.Gen != before {
		t.Error("a Data of another session replaced the open one's")
	}
}

func TestExportPrompt(t *testing.T) {
	var got string
	export := func(_ context.Context, d ui.Data, format string) (string, error) {
		got = format + " " + d.Snap.Session.Label
		if format == "text" {
			return "", errors.New("disk full")
		}
		return "exported to x.json", nil
	}
	a := opened(t, Options{Export: export})
	a, _ = update(t, a, tuitest.Press("e"))
	if !a.exporting() || !strings.Contains(a.Render(), "j json") {
		t.Fatalf("e shows no export prompt:\n%s", a.Render())
	}
	a, cmd := update(t, a, tuitest.Press("j"))
	if a.exporting() || cmd == nil {
		t.Fatal("j did not start the export")
	}
	a, _ = update(t, a, cmd())
	if got != "json elicit-seed" || !strings.Contains(a.Render(), "exported to x.json") {
		t.Errorf("export got %q; title %q", got, strings.SplitN(a.Render(), "\n", 2)[0])
	}
	_, cmd = update(t, opened(t, Options{Export: export}), tuitest.Press("e"), tuitest.Press("h"))
	if cmd == nil {
		t.Fatal("e h did not start the HTML report")
	}
	if cmd(); got != "html elicit-seed" {
		t.Errorf("e h exported %q, want the html report", got)
	}
	_, cmd = update(t, opened(t, Options{Export: export}), tuitest.Press("e"), tuitest.Press("t"))
	b, _ := update(t, a, cmd())
	if !strings.Contains(b.Render(), "export failed: disk full") {
		t.Errorf("a failed export is not shown: %q", strings.SplitN(b.Render(), "\n", 2)[0])
	}
	// Without an Export func, e does nothing.
	if c, _ := update(t, opened(t, Options{}), tuitest.Press("e")); c.exporting() {
		t.Error("e opened a prompt with no export")
	}
}
