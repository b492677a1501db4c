package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/tui/inspector"
	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/stream"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// statusFor is how long a status message stays up.
const statusFor = 4 * time.Second

// Update handles one message: the app's own first, then it hands the rest
// to the screen on top.
func (a App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return withPreviews(a.update(msg))
}

func (a App) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.w, a.h = msg.Width, msg.Height
		return a.resize(), nil
	case tea.BackgroundColorMsg:
		*a.th = *ui.NewTheme(msg.IsDark())
		return a, nil
	case tickMsg:
		a.now = time.Time(msg)
		a.hub = a.hub.SetNow(a.now)
		return a, tick()
	case openedMsg:
		return a.opened(msg)
	case dataMsg:
		return a.gotData(msg)
	case hubStartedMsg:
		a.hubSrc = msg.h
		return a, waitHub(msg.h)
	case hubListMsg:
		if !msg.ok {
			return a, nil
		}
		a.hub = a.hub.SetSessions(msg.list)
		return a, waitHub(a.hubSrc)
	case exportedMsg:
		if msg.err != nil {
			return a.setStatus("export failed: "+msg.err.Error(), true), nil
		}
		return a.setStatus(msg.text, false), nil
	case ui.StatusMsg:
		return a.setStatus(msg.Text, msg.Err), nil
	case ui.OpenSessionMsg:
		return a.openSession(msg)
	case ui.BackMsg:
		return a.back()
	case ui.InspectMsg:
		return a.inspect(msg.Call)
	case ui.JumpMsg: // to the stream, from under every screen
		a.stack = nil
		return a.toStream(msg)
	case tea.KeyPressMsg:
		return a.key(msg)
	case stream.PreviewMsg: // the answer column's texts, even under an overlay
		a.sess.stream = a.sess.stream.SetPreviews(msg)
		return a, nil
	case inspector.LoadedMsg: // the inspector's frames, even under an overlay
		a.stack, _ = a.stack.each(func(l layer) (layer, tea.Cmd) { return l.broadcast(msg) })
		return a, nil
	}
	return a.toScreen(msg)
}

// withPreviews adds to cmd the stream's reading of the answers now on
// screen (stream.PreviewCmd), after anything that may have moved them.
func withPreviews(m tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	a, ok := m.(App)
	if !ok || !a.hasSess || a.inHub {
		return m, cmd
	}
	if pc := a.sess.stream.PreviewCmd(); pc != nil {
		return a, tea.Batch(cmd, pc)
	}
	return a, cmd
}

func (a App) setStatus(text string, isErr bool) App {
	a.status, a.statusErr, a.statusEnd = text, isErr, a.now.Add(statusFor)
	return a
}

// resize hands every screen its size: the whole terminal but the title
// line.
func (a App) resize() App {
	w, h := a.w, max(a.h-1, 0)
	a.hub = a.hub.SetSize(w, h)
	if a.hasSess {
		a.sess.stream = a.sess.stream.SetSize(w, h)
	}
	a.stack, _ = a.stack.each(func(l layer) (layer, tea.Cmd) { return l.setSize(w, h), nil })
	return a
}

func (a App) opened(msg openedMsg) (tea.Model, tea.Cmd) {
	if msg.gen != a.want {
		if msg.src != nil { // a session the user left before it opened
			return a, closeCmd(msg.src)
		}
		return a, nil
	}
	a.gen = msg.gen
	if msg.err != nil {
		if a.opts.Dir == "" {
			a.fatal = msg.err
			return a, tea.Quit
		}
		a.inHub = true
		return a.setStatus(fmt.Sprintf("cannot open %s: %v", msg.name, msg.err), true), nil
	}
	a.sess = session{src: msg.src, name: msg.name, stream: stream.New(a.th)}
	a.status = "" // "opening …"
	a.hasSess, a.inHub = true, false
	a = a.resize()
	return a, waitData(a.gen, msg.src)
}

func (a App) gotData(msg dataMsg) (tea.Model, tea.Cmd) {
	if msg.gen != a.gen || !a.hasSess {
		return a, nil
	}
	if !msg.ok {
		a.sess.ended = true
		a.sess.err = a.sess.src.Err()
		if a.sess.err != nil {
			a = a.setStatus("reading stopped: "+a.sess.err.Error(), true)
		}
		return a, nil
	}
	d := msg.d
	a.sess.data, a.sess.loaded = d, true
	a.sess.stream = a.sess.stream.SetData(d)
	next := waitData(a.gen, a.sess.src)
	var reload tea.Cmd // the inspector reads a call answered since it opened again
	a.stack, reload = a.stack.each(func(l layer) (layer, tea.Cmd) { return l.broadcast(ui.DataMsg{Data: d}) })
	return a, tea.Batch(next, reload)
}

func closeCmd(src interface{ Close() error }) tea.Cmd {
	return func() tea.Msg { src.Close(); return nil }
}

func (a App) openSession(msg ui.OpenSessionMsg) (tea.Model, tea.Cmd) {
	// The sessions share the redactor: the old one is closed before the
	// new one opens.
	var cmds []tea.Cmd
	if a.hasSess {
		cmds = append(cmds, closeCmd(a.sess.src))
		a.hasSess, a.stack = false, nil
	}
	a.gen++ // what the closed session still sends is stale
	a.want = a.gen + 1
	cmds = append(cmds, a.openCmd(a.want, msg.Path, msg.ID))
	return a.setStatus("opening "+ui.Cell(msg.Path, 200)+" …", false), tea.Sequence(cmds...)
}

// back pops the top screen of the stack, else closes the session (back
// to the hub, when there is one).
func (a App) back() (tea.Model, tea.Cmd) {
	switch {
	case len(a.stack) > 0:
		a.stack = a.stack.pop()
	case a.hasSess && a.opts.Dir != "":
		src := a.sess.src
		a.hasSess, a.inHub = false, true
		a.gen++ // what the closed session still sends is stale
		return a, closeCmd(src)
	}
	return a, nil
}

func (a App) inspect(call int) (tea.Model, tea.Cmd) {
	if !a.hasSess || !a.sess.loaded || call < 0 || call >= a.sess.data.Snap.Calls.Len() {
		return a, nil
	}
	insp := inspector.New(a.th, a.sess.data, call).SetSize(a.w, max(a.h-1, 0))
	a.stack = stack{inspectorLayer{insp}} // a new call's replaces the inspector and what is over it
	return a, insp.Init()
}

func (a App) toStream(msg tea.Msg) (tea.Model, tea.Cmd) {
	if !a.hasSess {
		return a, nil
	}
	var cmd tea.Cmd
	a.sess.stream, cmd = a.sess.stream.Update(msg)
	return a, cmd
}

// toggleOverlay closes the overlay s opens when it is on top, else opens
// it: over the inspector or the stream, in place of another overlay.
func (a App) toggleOverlay(s overlay.Spec) App {
	top, ok := a.stack.top().(overlayLayer)
	isOverlay := ok && !top.modal
	if isOverlay && top.is(s.Kind) {
		a.stack = a.stack.pop()
		return a
	}
	var reg *finding.Registry
	if a.opts.Source != nil {
		reg = a.opts.Source.Rules
	}
	ov := overlayLayer{ov: s.New(a.th, a.sess.data, &overlay.Options{Rules: reg}).SetSize(a.w, max(a.h-1, 0))}
	if isOverlay {
		a.stack = a.stack.setTop(ov)
		return a
	}
	a.stack = a.stack.push(ov)
	return a
}

// matches reports whether msg is one of the bindings.
func matches(msg tea.KeyPressMsg, bs ...key.Binding) bool { return key.Matches(msg, bs...) }
