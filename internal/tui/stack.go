package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/inspector"
	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// layer is a screen of the app's stack, over the base (the hub or the
// session's stream): the inspector, an overlay, the help, the export
// prompt. Keys and the mouse go to the top one; Data and the inspector's
// loads go to every one.
type layer interface {
	// update handles a message routed to the top of the stack.
	update(msg tea.Msg) (layer, tea.Cmd)
	// view draws the layer; ok is false for one that leaves the screen
	// under it showing (the export prompt lives in the title line).
	view() (v string, ok bool)
	setSize(w, h int) layer
	// broadcast handles a message every layer is given: a ui.DataMsg, an
	// inspector.LoadedMsg.
	broadcast(msg tea.Msg) (layer, tea.Cmd)
	// help is the layer's group in the help; an empty group for none.
	help() overlay.HelpGroup
	// hints are the keys the layer's footer names; nil for a layer drawn
	// in the title line.
	hints() []ui.Hint
	// capturing reports whether the layer takes every key, the app's own
	// but ctrl+c included.
	capturing() bool
}

// overlayLayer is an overlay, or (modal) the help.
type overlayLayer struct {
	ov    overlay.Overlay
	modal bool
}

func (l overlayLayer) update(msg tea.Msg) (layer, tea.Cmd) {
	var cmd tea.Cmd
	l.ov, cmd = l.ov.Update(msg)
	return l, cmd
}

func (l overlayLayer) view() (string, bool)   { return l.ov.View(), true }
func (l overlayLayer) setSize(w, h int) layer { l.ov = l.ov.SetSize(w, h); return l }
func (l overlayLayer) capturing() bool        { return l.modal }
func (l overlayLayer) hints() []ui.Hint       { return l.ov.Hints() }
func (l overlayLayer) help() overlay.HelpGroup {
	return overlay.HelpGroup{Title: "overlay", Bindings: l.ov.Bindings()}
}

// is reports whether l is the overlay k.
func (l overlayLayer) is(k overlay.Kind) bool { return !l.modal && l.ov.Kind() == k }

func (l overlayLayer) broadcast(msg tea.Msg) (layer, tea.Cmd) {
	if d, ok := msg.(ui.DataMsg); ok {
		l.ov = l.ov.SetData(d.Data)
	}
	return l, nil
}

// inspectorLayer is the inspector of one call.
type inspectorLayer struct{ m inspector.Model }

func (l inspectorLayer) update(msg tea.Msg) (layer, tea.Cmd) {
	var cmd tea.Cmd
	l.m, cmd = l.m.Update(msg)
	return l, cmd
}

func (l inspectorLayer) view() (string, bool)   { return l.m.View(), true }
func (l inspectorLayer) setSize(w, h int) layer { l.m = l.m.SetSize(w, h); return l }
func (l inspectorLayer) capturing() bool        { return l.m.Capturing() }
func (l inspectorLayer) hints() []ui.Hint       { return l.m.Hints() }
func (l inspectorLayer) help() overlay.HelpGroup {
	return overlay.HelpGroup{Title: "inspector", Bindings: l.m.Bindings()}
}

// broadcast reads a call answered since the inspector opened again, and
// takes the frames it loads even under an overlay.
func (l inspectorLayer) broadcast(msg tea.Msg) (layer, tea.Cmd) {
	switch msg.(type) {
	case ui.DataMsg, inspector.LoadedMsg:
		return l.update(msg)
	}
	return l, nil
}

// exportPrompt is the export prompt: the title line asks for a format,
// and the app's exportKey takes every key.
type exportPrompt struct{}

func (p exportPrompt) update(tea.Msg) (layer, tea.Cmd)    { return p, nil }
func (p exportPrompt) view() (string, bool)               { return "", false }
func (p exportPrompt) setSize(int, int) layer             { return p }
func (p exportPrompt) broadcast(tea.Msg) (layer, tea.Cmd) { return p, nil }
func (p exportPrompt) help() overlay.HelpGroup            { return overlay.HelpGroup{} }
func (p exportPrompt) capturing() bool                    { return true }
func (p exportPrompt) hints() []ui.Hint                   { return nil }

// stack is the app's layers, the top last. A stack is a value: push and
// pop return a new one and never change the layers an older copy holds.
type stack []layer

// top returns the layer on top, nil for none.
func (s stack) top() layer {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// push returns s with l on top.
func (s stack) push(l layer) stack { return append(s[:len(s):len(s)], l) }

// pop returns s without its top.
func (s stack) pop() stack {
	if len(s) == 0 {
		return s
	}
	return s[: len(s)-1 : len(s)-1]
}

// setTop returns s with l instead of its top.
func (s stack) setTop(l layer) stack { return s.pop().push(l) }

// each returns s with fn applied to every layer, and the commands fn
// gave, batched.
func (s stack) each(fn func(layer) (layer, tea.Cmd)) (stack, tea.Cmd) {
	if len(s) == 0 {
		return s, nil
	}
	out := make(stack, len(s))
	cmds := make([]tea.Cmd, len(s))
	for i, l := range s {
		out[i], cmds[i] = fn(l)
	}
	return out, tea.Batch(cmds...)
}
