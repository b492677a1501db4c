package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcptrail/mcptrail/internal/tui/overlay"
)

// keyMap holds the app's own bindings, active on every session screen
// unless a screen captures the keyboard (a filter or search input).
type keyMap struct {
	Quit, ForceQuit, Back, Help        key.Binding
	Export                             key.Binding
	ExportJSON, ExportText, ExportHTML key.Binding
	ExportCancel                       key.Binding
	// overlays are the registered overlays, each opened by its Key.
	overlays []overlay.Spec
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
		Export:       b([]string{"e"}, "e", "export the session"),
		ExportJSON:   b([]string{"j"}, "j", "export as JSON"),
		ExportText:   b([]string{"t"}, "t", "export as text"),
		ExportHTML:   b([]string{"h"}, "h", "write the HTML report"),
		ExportCancel: b([]string{"esc"}, "esc", "cancel the export"),
		overlays:     overlay.Specs(),
	}
}

// session lists the app's bindings active over a session.
func (k keyMap) session(hasHub bool) []key.Binding {
	back := k.Back
	back.SetEnabled(hasHub)
	if hasHub {
		back.SetHelp("esc", "back to the sessions")
	}
	bs := make([]key.Binding, 0, len(k.overlays)+4)
	for _, s := range k.overlays {
		bs = append(bs, s.Key)
	}
	return append(bs, k.Export, k.Help, back, k.Quit)
}

// hub lists the app's bindings active over the hub.
func (k keyMap) hub() []key.Binding { return []key.Binding{k.Help, k.Quit} }
