package tui

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/hub"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/stream"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Options say what the app shows and how. Exactly one of Dir (the hub),
// Path or Stdin is the start.
type Options struct {
	// Theme draws every screen; nil means ui.NewTheme(true), replaced once
	// the terminal reports its background.
	Theme *ui.Theme
	// Source holds the redaction and the rules every session is read with.
	Source *source.Options
	// Dir is the sessions directory the hub watches; "" opens no hub.
	Dir string
	// Path and ID open one session (ID "" the file's last) with no hub.
	Path, ID string
	// Stdin, when non-nil, is a capture read whole (mcptrail open -).
	Stdin io.Reader
	// Export writes the session shown as format ("json", "text" or
	// "html", the report of internal/export/html) to a file it never
	// overwrites, and returns what to tell the user (where it went); nil
	// disables `e`.
	Export func(ctx context.Context, d ui.Data, format string) (string, error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Streams are the terminal Run draws on; the zero value is the
	// process's.
	Streams Streams
}

// App is the TUI's root model.
type App struct {
	ctx  context.Context
	opts Options
	th   *ui.Theme
	keys keyMap
	w, h int

	hubSrc *source.Hub
	hub    hub.Model
	inHub  bool // the hub is the base, under the stack (no session open)

	sess    session
	hasSess bool
	gen     int // identifies the session whose messages are current
	want    int // the gen of the session being opened

	status    string
	statusErr bool
	statusEnd time.Time
	now       time.Time

	fatal error // the session named at the start could not be opened

	// stack holds the screens over the base (the hub, or the session's
	// stream): the inspector, the overlays, the help, the export prompt.
	stack stack
}

// session is the open session and its screens.
type session struct {
	src    *source.Session
	name   string // for messages: the path or "standard input"
	data   ui.Data
	loaded bool // a first Data arrived
	ended  bool // Updates closed
	err    error

	stream stream.Model
}

// New returns the app for opts; ctx bounds every source it opens.
func New(ctx context.Context, opts Options) App {
	th := opts.Theme
	if th == nil {
		th = ui.NewTheme(true)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	keys := newKeyMap()
	a := App{ctx: ctx, opts: opts, th: th, keys: keys, now: opts.Now()}
	a.hub = hub.New(th).SetDir(opts.Dir).SetHints(keys.hub()).SetNow(a.now)
	a.inHub = opts.Dir != "" && opts.Path == "" && opts.Stdin == nil
	if !a.inHub {
		a.want = 1
	}
	return a
}

// Init starts the hub's watch or opens the session, and asks the terminal
// for its background colour.
func (a App) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, tick()}
	switch {
	case a.opts.Stdin != nil:
		cmds = append(cmds, a.readCmd(1))
	case a.opts.Path != "":
		cmds = append(cmds, a.openCmd(1, a.opts.Path, a.opts.ID))
	case a.opts.Dir != "":
		cmds = append(cmds, a.watchCmd())
	}
	return tea.Batch(cmds...)
}

// Messages the app sends itself.
type (
	openedMsg struct {
		gen  int
		src  *source.Session
		name string
		err  error
	}
	dataMsg struct {
		gen int
		d   ui.Data
		ok  bool // false: the source closed Updates
	}
	hubStartedMsg struct{ h *source.Hub }
	hubListMsg    struct {
		list []ui.SessionInfo
		ok   bool
	}
	tickMsg     time.Time
	exportedMsg struct {
		text string
		err  error
	}
)

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (a App) openCmd(gen int, path, id string) tea.Cmd {
	ctx, opts := a.ctx, a.opts.Source
	return func() tea.Msg {
		src, err := source.Open(ctx, path, id, opts)
		return openedMsg{gen: gen, src: src, name: path, err: err}
	}
}

func (a App) readCmd(gen int) tea.Cmd {
	ctx, opts, in := a.ctx, a.opts.Source, a.opts.Stdin
	return func() tea.Msg {
		src, err := source.Read(ctx, in, a.opts.ID, opts)
		return openedMsg{gen: gen, src: src, name: "standard input", err: err}
	}
}

func (a App) watchCmd() tea.Cmd {
	ctx, dir, opts := a.ctx, a.opts.Dir, a.opts.Source
	return func() tea.Msg { return hubStartedMsg{source.Watch(ctx, dir, opts)} }
}

// waitData waits for the next Data of session gen.
func waitData(gen int, src *source.Session) tea.Cmd {
	return func() tea.Msg {
		d, ok := <-src.Updates()
		return dataMsg{gen: gen, d: d, ok: ok}
	}
}

func waitHub(h *source.Hub) tea.Cmd {
	return func() tea.Msg {
		l, ok := <-h.Updates()
		return hubListMsg{list: l, ok: ok}
	}
}

// Close stops the sources the app opened; call it after the program ends.
func (a App) Close() {
	if a.hasSess && a.sess.src != nil {
		a.sess.src.Close()
	}
	if a.hubSrc != nil {
		a.hubSrc.Close()
	}
}
