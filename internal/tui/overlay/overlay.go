// Package overlay holds the TUI's overlays over a session: the
// elicitation ledger, the capabilities, the tools (the catalog with its
// call statistics) and the findings by rule, and the key help. Each is an
// Overlay; the app keeps them on its screen stack and routes keys to the
// one on top.
//
// It sits beside the other screens of internal/tui: it reads a ui.Data
// (a store snapshot) and the rules registry, and navigates only by
// returning ui messages (JumpMsg, BackMsg, StatusMsg) as commands. Update
// and View do no I/O; the ledger's reveal (v) reads the answer's frame
// back from the capture in the command it returns (reveal.go).
// An Overlay is a value: Update, SetSize and SetData return a new one; it
// is not safe for concurrent use, and needs none (Bubble Tea calls it from
// one goroutine).
//
// # Adding an overlay
//
// A new overlay touches two files of this package:
//
//   - its own file, NAME.go: its Kind constant and its model. A list
//     overlay is a rows type (set, count, title, cells, empty; header,
//     detail and jump when it has them) made an Overlay by newList, as
//     ledger.go does; any other implements Overlay itself, as help.go
//     does.
//   - registry.go: one Spec in Specs, with the key that opens it. The app
//     (internal/tui) binds every Spec's key, lists it in the help and
//     pushes the overlay on its stack; it needs no edit.
//
// TestEveryKindRegistered (registry_test.go) fails until the new file's
// Kind has its Spec; TestSpecs until the Spec is complete (a kind of its
// own, an enabled key with help no other overlay takes, a constructor
// whose overlay has the Kind, draws in its size and closes on esc); the
// app's TestOverlayKeysFree until the key is none of the app's own, and
// TestOverlayKeysToggle opens and closes it. Its goldens come from a row
// added to TestViewGolden (view_test.go), run once with -update.
package overlay

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Overlay is one full-screen overlay over a session.
type Overlay interface {
	// Update handles a key, the mouse wheel or a ui.DataMsg; it closes
	// the overlay by returning ui.BackMsg as a command.
	Update(msg tea.Msg) (Overlay, tea.Cmd)
	// View draws the overlay in exactly its size.
	View() string
	// SetSize sets the overlay's size in cells.
	SetSize(w, h int) Overlay
	// SetData gives the overlay a newer Data, keeping the selection on
	// the same row.
	SetData(d ui.Data) Overlay
	// Bindings lists the overlay's keys active now, for the help.
	Bindings() []key.Binding
	// Hints lists the keys for the overlay's footer line, the most useful
	// first; never empty (TestEveryScreenHints).
	Hints() []ui.Hint
	// Kind names the overlay; the help's is "".
	Kind() Kind
}

// Kind names an overlay. Each overlay's file declares its own.
type Kind string

// Options are the overlays' knobs; the zero value (or nil) means defaults.
type Options struct {
	// Rules is the effective registry (the user's [rules] applied) the
	// findings overlay takes each rule's summary, help, spec and severity
	// from; nil means rules.Default().
	Rules *finding.Registry
	// Keys are the bindings; nil means DefaultKeyMap().
	Keys *KeyMap
}

// keyMap returns the bindings opts asks for.
func (opts *Options) keyMap() KeyMap {
	if opts != nil && opts.Keys != nil {
		return *opts.Keys
	}
	return DefaultKeyMap()
}

// rules returns the registry opts asks for.
func (opts *Options) rules() *finding.Registry {
	if opts != nil && opts.Rules != nil {
		return opts.Rules
	}
	return rules.Default()
}

// New returns the overlay kind over d, with default options; nil when no
// Spec has that kind.
func New(th *ui.Theme, kind Kind, d ui.Data) Overlay { return NewWith(th, kind, d, nil) }

// NewWith returns the overlay kind over d with opts (nil means defaults);
// nil when no Spec has that kind.
func NewWith(th *ui.Theme, kind Kind, d ui.Data, opts *Options) Overlay {
	for _, s := range Specs() {
		if s.Kind == kind {
			return s.New(th, d, opts)
		}
	}
	return nil
}

// send returns a command that delivers msg.
func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
