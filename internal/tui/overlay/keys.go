package overlay

import "charm.land/bubbles/v2/key"

// KeyMap holds the overlays' key bindings.
type KeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	// Jump (enter) jumps to the stream: a ledger row's root call, a
	// finding's frame. Disabled on the overlays where it does nothing.
	Jump key.Binding
	// Reveal (v) shows the selected ledger row's answer, read from the
	// capture; disabled on the other overlays.
	Reveal key.Binding
	Back   key.Binding
}

// DefaultKeyMap returns the overlays' default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "space"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last row")),
		Jump:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump to the stream")),
		Reveal:   revealKey(),
		Back:     key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc/q", "close")),
	}
}

// bindings lists the enabled bindings of km, in help order.
func (km KeyMap) bindings() []key.Binding {
	all := []key.Binding{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom, km.Jump, km.Reveal, km.Back}
	out := all[:0]
	for _, b := range all {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}
