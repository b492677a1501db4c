package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// View draws the title line and the screen on top, in the alternate
// screen with mouse wheel reporting.
func (a App) View() tea.View {
	v := tea.NewView(a.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "mcptrail"
	return v
}

// Render is the screen as text: exactly the terminal's size.
func (a App) Render() string {
	switch {
	case a.w <= 0 || a.h <= 0:
		return ""
	case a.h == 1:
		return a.title()
	}
	return a.title() + "\n" + a.body()
}

// body is the screen under the title line.
func (a App) body() string {
	w, h := a.w, a.h-1
	if h <= 0 {
		return ""
	}
	for i := len(a.stack) - 1; i >= 0; i-- {
		if v, ok := a.stack[i].view(); ok {
			return v
		}
	}
	switch {
	case a.inHub:
		return a.hub.View()
	case !a.hasSess:
		return blank(a.th.Dim.Render(ui.Cell("opening …", w)), h)
	case !a.sess.loaded:
		return blank(a.th.Dim.Render(ui.Cell("reading "+a.sess.name+" …", w)), h)
	}
	return a.sess.stream.View()
}

// blank is first followed by empty lines: h lines in all.
func blank(first string, h int) string {
	return first + strings.Repeat("\n", max(h-1, 0))
}

// title is the first line: where we are, the status message or the
// export prompt.
func (a App) title() string {
	left := a.th.Title.Render("mcptrail")
	if a.hasSess && a.sess.loaded {
		left += " " + a.sessionTitle()
	} else if a.inHub {
		left += a.th.Dim.Render(" sessions")
	}
	right := ""
	switch {
	case a.exporting():
		right = a.th.Key.Render("export:") + " h html report · j json · t text · esc cancel"
	case a.status != "" && a.now.Before(a.statusEnd):
		st := a.th.Dim
		if a.statusErr {
			st = a.th.Error
		}
		right = st.Render(ui.Cell(a.status, max(a.w/2, 10)))
	case a.damage() != "":
		right = a.th.Error.Render(ui.Cell(a.damage(), max(a.w/2, 10)))
	default:
		right = a.th.Dim.Render("? help")
	}
	gap := a.w - ui.Width(left) - ui.Width(right)
	switch {
	case a.w < ui.Width(right)+10:
		return ui.Pad(left, a.w)
	case gap < 1:
		return ui.Pad(left, a.w-ui.Width(right)-1) + " " + right
	}
	return ui.Pad(left+strings.Repeat(" ", gap)+right, a.w)
}

// damage says what went wrong reading the open session, for the title
// line to keep showing once the status message is gone: reading stopped
// (the file was truncated or replaced under the reader, a read error:
// what was read stays on screen), the reader skipped lines, or the
// capture lost records. It is "" when nothing did.
func (a App) damage() string {
	if !a.hasSess || !a.sess.loaded || a.inHub {
		return ""
	}
	switch err := a.sess.err; {
	case errors.Is(err, capture.ErrTruncated):
		return "file truncated: showing what was read"
	case errors.Is(err, capture.ErrReplaced):
		return "file replaced: showing what was read"
	case err != nil:
		return "reading stopped: " + err.Error()
	}
	s := a.sess.data.Snap.Session
	if d := s.Damage.String(); d != "" {
		return "capture damaged: " + d
	}
	if s.LostFrames > 0 {
		return fmt.Sprintf("capture lost %d frames (%d bytes)", s.LostFrames, s.LostBytes)
	}
	return ""
}

// sessionTitle names the open session: label, transport, peers, liveness.
func (a App) sessionTitle() string {
	s := a.sess.data.Snap.Session
	peer := func(name, version string) string {
		if name == "" {
			return "?"
		}
		return ui.Cell(name, 24) + " " + ui.Cell(version, 12)
	}
	t := fmt.Sprintf("▸ %s · %s · %s → %s", ui.Cell(s.Label, 30), ui.Cell(s.Transport, 5),
		peer(s.Client.Name, s.Client.Version), peer(s.Server.Name, s.Server.Version))
	switch {
	case a.sess.data.Loading:
		t += " " + a.th.Warn.Render(a.sess.data.LoadingText())
	case a.sess.data.Live:
		t += " " + a.th.Live.Render("● live")
	case s.Redacted:
		t += " " + a.th.Dim.Render("(redacted)")
	}
	return t
}

// helpGroups are the bindings active now: the screen's, then the app's.
func (a App) helpGroups() []overlay.HelpGroup {
	app := a.keys.session(a.opts.Dir != "")
	switch {
	case a.inHub || !a.hasSess:
		return []overlay.HelpGroup{{Title: "sessions", Bindings: a.hub.Bindings()}, {Title: "everywhere", Bindings: a.keys.hub()}}
	case len(a.stack) > 0:
		return []overlay.HelpGroup{a.stack.top().help(), {Title: "session", Bindings: app}}
	}
	return []overlay.HelpGroup{{Title: "stream", Bindings: a.sess.stream.Bindings()}, {Title: "session", Bindings: app}}
}
