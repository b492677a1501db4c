package tui

import "charm.land/bubbles/v2/key"

// keyMap holds the app's own bindings, active on every session screen
// unless a screen captures the keyboard (a filter or search input).
type keyMap struct {
	Quit, ForceQuit, Back, Help           key.Binding
	Ledger, Caps, Tools, Findings, Export key.Binding
	ExportJSON, ExportText, ExportCancel  key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Quit:         b([]string{"q"}, "q", "quit"),
		ForceQuit:    b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Back:         b([]string{"esc"}, "esc", "back"),
		Help:         b([]string{"?"}, "?", "help"),
		Ledger:       b([]string{"l"}, "l", "elicitation ledger"),
		Caps:         b([]string{"c"}, "c", "capabilities"),
		Tools:        b([]string{"t"}, "t", "tools"),
		Findings:     b([]string{"f"}, "f", "findings"),
		Export:       b([]string{"e"}, "e", "export the session"),
		ExportJSON:   b([]string{"j"}, "j", "export as JSON"),
		ExportText:   b([]string{"t"}, "t", "export as text"),
		ExportCancel: b([]string{"esc"}, "esc", "cancel the export"),
	}
}

// session lists the app's bindings active over a session.
func (k keyMap) session(hasHub bool) []key.Binding {
	back := k.Back
	back.SetEnabled(hasHub)
	if hasHub {
		back.SetHelp("esc", "back to the sessions")
	}
	return []key.Binding{k.Ledger, k.Caps, k.Tools, k.Findings, k.Export, k.Help, back, k.Quit}
}

// hub lists the app's bindings active over the hub.
func (k keyMap) hub() []key.Binding { return []key.Binding{k.Help, k.Quit} }
