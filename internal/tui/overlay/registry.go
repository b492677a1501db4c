package overlay

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Spec registers an overlay with the app: its kind, the key that opens
// (and, pressed again, closes) it, and its constructor.
type Spec struct {
	Kind Kind
	// Key opens the overlay from any session screen; its help text is
	// the help's line for it.
	Key key.Binding
	// New returns the overlay over d; opts nil means defaults.
	New func(th *ui.Theme, d ui.Data, opts *Options) Overlay
}

// Specs lists the overlays, in the order of the help.
func Specs() []Spec {
	return []Spec{
		{Ledger, binding("l", "elicitation ledger"), newLedger},
		{Capabilities, binding("c", "capabilities"), newCaps},
		{Tools, binding("t", "tools"), newTools},
		{Findings, binding("f", "findings"), newFindings},
	}
}

// binding is the key k, with help desc.
func binding(k, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc))
}
