package stream

import "charm.land/bubbles/v2/key"

// KeyMap is the stream's key bindings.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	Inspect          key.Binding
	Toggle           key.Binding // expand or collapse an operation's rounds
	Expand, Collapse key.Binding
	Filter           key.Binding // focus the filter bar
	Notifications    key.Binding
	Stderr           key.Binding

	// The filter bar's keys, active while it has focus.
	Apply, Cancel, Clear key.Binding
}

// DefaultKeyMap returns the stream's default bindings.
func DefaultKeyMap() KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return KeyMap{
		Up:            key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "up (pauses follow)")),
		Down:          key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "down")),
		PageUp:        key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup/ctrl+u", "page up (pauses follow)")),
		PageDown:      key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn/ctrl+d", "page down")),
		Top:           key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first row (pauses follow)")),
		Bottom:        key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last row, resume follow")),
		Inspect:       b("inspect the call", "enter"),
		Toggle:        b("expand/collapse rounds", "space"),
		Expand:        key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "expand rounds")),
		Collapse:      key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "collapse rounds")),
		Filter:        b("filter", "/"),
		Notifications: b("show/hide notifications", "n"),
		Stderr:        b("show/hide stderr and notes", "s"),
		Apply:         b("apply the filter", "enter"),
		Cancel:        b("cancel editing", "esc"),
		Clear:         b("clear the filter text", "ctrl+u"),
	}
}

// browsing lists the bindings active while the filter bar has no focus.
func (k KeyMap) browsing() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Inspect,
		k.Toggle, k.Expand, k.Collapse, k.Filter, k.Notifications, k.Stderr}
}

// editing lists the bindings active while the filter bar has focus.
func (k KeyMap) editing() []key.Binding {
	return []key.Binding{k.Apply, k.Cancel, k.Clear}
}
