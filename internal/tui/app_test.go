package tui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

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

func press(s string) tea.KeyPressMsg {
	switch s {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
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

func TestOverlayKeysToggle(t *testing.T) {
	a := opened(t, Options{})
	for _, tt := range []struct {
		key  string
		want overlay.Kind
	}{{"l", overlay.Ledger}, {"c", overlay.Capabilities}, {"t", overlay.Tools}, {"f", overlay.Findings}} {
		b, _ := update(t, a, press(tt.key))
		if b.sess.ovKind != tt.want {
			t.Errorf("%s: overlay %d, want %d", tt.key, b.sess.ovKind, tt.want)
		}
		b, _ = update(t, b, press(tt.key))
		if b.sess.ovKind != 0 {
			t.Errorf("%s twice: overlay %d still up", tt.key, b.sess.ovKind)
		}
		b, _ = update(t, a, press(tt.key), press("esc"))
		if b.sess.ovKind != 0 {
			t.Errorf("%s then esc: overlay %d still up", tt.key, b.sess.ovKind)
		}
	}
}

func TestJumpClosesOverlayAndInspector(t *testing.T) {
	a := opened(t, Options{})
	a, _ = update(t, a, ui.InspectMsg{Call: 1})
	if !a.sess.hasInsp {
		t.Fatal("InspectMsg opened no inspector")
	}
	a, _ = update(t, a, press("l"), ui.JumpMsg{Call: 2})
	if a.sess.hasInsp || a.sess.ovKind != 0 {
		t.Errorf("after JumpMsg: inspector %v, overlay %d; want the stream", a.sess.hasInsp, a.sess.ovKind)
	}
	if a.sess.stream.Selected() != 2 {
		t.Errorf("stream selects call %d, want 2", a.sess.stream.Selected())
	}
	// An index the session does not have opens nothing.
	if b, _ := update(t, a, ui.InspectMsg{Call: 99}); b.sess.hasInsp {
		t.Error("InspectMsg{99} opened an inspector on a 6-call session")
	}
}

func TestQuitHelpAndBack(t *testing.T) {
	a := opened(t, Options{})
	if _, cmd := update(t, a, press("q")); !isQuit(cmd) {
		t.Error("q does not quit")
	}
	if _, cmd := update(t, a, press("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c does not quit")
	}
	b, _ := update(t, a, press("?"))
	if !b.help {
		t.Error("? shows no help")
	}
	b, cmd := update(t, b, press("q"))
	if cmd == nil {
		t.Fatal("q in the help does nothing")
	}
	msg := cmd()
	if _, quit := msg.(tea.QuitMsg); quit {
		t.Fatal("q in the help quits")
	}
	if b, _ = update(t, b, msg); b.help {
		t.Error("q in the help leaves the help up")
	}
	// Without a hub, esc over the stream leaves the session open.
	if b, _ := update(t, a, press("esc")); !b.hasSess {
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
	a, _ = update(t, a, press("e"))
	if !a.exporting || !strings.Contains(a.Render(), "j json") {
		t.Fatalf("e shows no export prompt:\n%s", a.Render())
	}
	a, cmd := update(t, a, press("j"))
	if a.exporting || cmd == nil {
		t.Fatal("j did not start the export")
	}
	a, _ = update(t, a, cmd())
	if got != "json elicit-seed" || !strings.Contains(a.Render(), "exported to x.json") {
		t.Errorf("export got %q; title %q", got, strings.SplitN(a.Render(), "\n", 2)[0])
	}
	_, cmd = update(t, opened(t, Options{Export: export}), press("e"), press("t"))
	b, _ := update(t, a, cmd())
	if !strings.Contains(b.Render(), "export failed: disk full") {
		t.Errorf("a failed export is not shown: %q", strings.SplitN(b.Render(), "\n", 2)[0])
	}
	// Without an Export func, e does nothing.
	if c, _ := update(t, opened(t, Options{}), press("e")); c.exporting {
		t.Error("e opened a prompt with no export")
	}
}
