package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/overlay"
)

// key handles a key press: quit and help everywhere, the export prompt,
// then (unless the screen on top takes every key) the session keys, and
// hands the rest to the screen.
func (a App) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := a.keys
	switch {
	case matches(msg, k.ForceQuit):
		return a, tea.Quit
	case a.exporting():
		return a.exportKey(msg)
	case a.capturing():
		return a.toScreen(msg)
	case matches(msg, k.Quit):
		return a, tea.Quit
	case matches(msg, k.Help):
		help := overlay.NewHelpGroups(a.th, a.helpGroups()...).SetSize(a.w, max(a.h-1, 0))
		a.stack = a.stack.push(overlayLayer{ov: help, modal: true})
		return a, nil
	case a.inHub || !a.hasSess:
		return a.toScreen(msg)
	case matches(msg, k.Back):
		return a.back()
	case matches(msg, k.Export) && a.opts.Export != nil && a.sess.loaded:
		a.stack = a.stack.push(exportPrompt{})
		return a, nil
	}
	for _, s := range a.keys.overlays {
		if matches(msg, s.Key) {
			if !a.sess.loaded {
				return a, nil
			}
			return a.toggleOverlay(s), nil
		}
	}
	return a.toScreen(msg)
}

// exporting reports whether the export prompt is up.
func (a App) exporting() bool {
	_, ok := a.stack.top().(exportPrompt)
	return ok
}

// capturing reports whether the screen on top takes every key.
func (a App) capturing() bool {
	switch top := a.stack.top(); {
	case top != nil:
		return top.capturing()
	case a.inHub || !a.hasSess:
		return a.hub.Capturing()
	}
	return a.sess.stream.Capturing()
}

// toScreen hands msg to the screen on top of the stack, else to the base;
// a mouse message's row is counted from the screen's first line, under
// the title line.
func (a App) toScreen(msg tea.Msg) (tea.Model, tea.Cmd) {
	msg = belowTitle(msg)
	var cmd tea.Cmd
	switch top := a.stack.top(); {
	case top != nil:
		top, cmd = top.update(msg)
		a.stack = a.stack.setTop(top)
	case a.inHub || !a.hasSess:
		a.hub, cmd = a.hub.Update(msg)
	default:
		a.sess.stream, cmd = a.sess.stream.Update(msg)
	}
	return a, cmd
}

// exportKey handles the export prompt: j, t or h writes the session, esc
// cancels.
func (a App) exportKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := a.keys
	format := ""
	switch {
	case matches(msg, k.ExportJSON):
		format = "json"
	case matches(msg, k.ExportText):
		format = "text"
	case matches(msg, k.ExportHTML):
		format = "html"
	case matches(msg, k.ExportCancel):
		a.stack = a.stack.pop()
		return a, nil
	default:
		return a, nil
	}
	a.stack = a.stack.pop()
	ctx, d, export := a.ctx, a.sess.data, a.opts.Export
	a = a.setStatus("exporting as "+format+" …", false)
	return a, func() tea.Msg {
		text, err := export(ctx, d, format)
		return exportedMsg{text: text, err: err}
	}
}

// belowTitle moves a mouse message one row up: screens are drawn under
// the title line.
func belowTitle(msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.MouseClickMsg:
		m.Y--
		return m
	case tea.MouseReleaseMsg:
		m.Y--
		return m
	case tea.MouseMotionMsg:
		m.Y--
		return m
	case tea.MouseWheelMsg:
		m.Y--
		return m
	}
	return msg
}
