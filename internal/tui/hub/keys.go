package hub

import "charm.land/bubbles/v2/key"

// KeyMap is the hub's key bindings.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	Open             key.Binding
	Filter           key.Binding
	// ClearFilter drops the label filter (esc, when one is set).
	ClearFilter key.Binding
	// KeepFilter and CancelFilter end typing in the filter line: the
	// first keeps what was typed, the second clears it.
	KeepFilter, CancelFilter key.Binding
}

// DefaultKeyMap returns the hub's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:       key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:          key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "newest")),
		Bottom:       key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "oldest")),
		Open:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		KeepFilter:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		CancelFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}
