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
	case a.help:
		var cmd tea.Cmd
		a.helpM, cmd = a.helpM.Update(msg)
		return a, cmd
	case a.exporting:
		return a.exportKey(msg)
	case a.capturing():
		return a.toScreen(msg)
	case matches(msg, k.Quit):
		return a, tea.Quit
	case matches(msg, k.Help):
		a.help = true
		a.helpM = overlay.NewHelpGroups(a.th, a.helpGroups()...).SetSize(a.w, max(a.h-1, 0))
		return a, nil
	case a.inHub || !a.hasSess:
		return a.toScreen(msg)
	case matches(msg, k.Back):
		return a.back()
	case matches(msg, k.Export) && a.opts.Export != nil && a.sess.loaded:
		a.exporting = true
		return a, nil
	}
	if kind := a.overlayKey(msg); kind != 0 {
		if !a.sess.loaded {
			return a, nil
		}
		if kind == a.sess.ovKind {
			a.sess.ovKind = 0
			return a, nil
		}
		return a.openOverlay(kind), nil
	}
	return a.toScreen(msg)
}

// overlayKey is the overlay msg opens, or 0.
func (a App) overlayKey(msg tea.KeyPressMsg) overlay.Kind {
	k := a.keys
	switch {
	case matches(msg, k.Ledger):
		return overlay.Ledger
	case matches(msg, k.Caps):
		return overlay.Capabilities
	case matches(msg, k.Tools):
		return overlay.Tools
	case matches(msg, k.Findings):
		return overlay.Findings
	}
	return 0
}

// capturing reports whether the screen on top takes every key.
func (a App) capturing() bool {
	switch {
	case a.inHub || !a.hasSess:
		return a.hub.Capturing()
	case a.sess.ovKind != 0:
		return false
	case a.sess.hasInsp:
		return a.sess.insp.Capturing()
	}
	return a.sess.stream.Capturing()
}

// toScreen hands msg to the screen on top; a mouse message's row is
// counted from the screen's first line, under the title line.
func (a App) toScreen(msg tea.Msg) (tea.Model, tea.Cmd) {
	msg = belowTitle(msg)
	var cmd tea.Cmd
	switch {
	case a.inHub || !a.hasSess:
		a.hub, cmd = a.hub.Update(msg)
	case a.sess.ovKind != 0:
		a.sess.ov, cmd = a.sess.ov.Update(msg)
	case a.sess.hasInsp:
		a.sess.insp, cmd = a.sess.insp.Update(msg)
	default:
		a.sess.stream, cmd = a.sess.stream.Update(msg)
	}
	return a, cmd
}

// exportKey handles the export prompt: j or t writes the session, esc
// cancels.
func (a App) exportKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := a.keys
	format := ""
	switch {
	case matches(msg, k.ExportJSON):
		format = "json"
	case matches(msg, k.ExportText):
		format = "text"
	case matches(msg, k.ExportCancel):
		a.exporting = false
		return a, nil
	default:
		return a, nil
	}
	a.exporting = false
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
