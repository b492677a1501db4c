package inspector

import "charm.land/bubbles/v2/key"

// KeyMap is the inspector's key bindings.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// Fold toggles the fold of the object or array on the cursor line;
	// FoldAll folds every container below the root's members, UnfoldAll
	// unfolds them all.
	Fold, FoldAll, UnfoldAll key.Binding
	// Pair switches between the request and the response (and the nested
	// requests' list); PairBack goes the other way.
	Pair, PairBack key.Binding
	// NextRound and PrevRound move between the rounds of an operation.
	NextRound, PrevRound key.Binding
	// Root inspects the operation's root call or a nested request's
	// parent; Open inspects the nested request under the cursor.
	Root, Open key.Binding
	// Search opens the search input; Next and Prev move between matches.
	Search, Next, Prev key.Binding
	// CopyBody and CopyPath copy the body or the cursor line's jq path.
	CopyBody, CopyPath key.Binding
	Back               key.Binding
}

// DefaultKeyMap returns the inspector's default bindings.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:        b("↑/k", "up", "up", "k"),
		Down:      b("↓/j", "down", "down", "j"),
		PageUp:    b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown:  b("pgdn", "page down", "pgdown", "ctrl+f"),
		Top:       b("g", "top", "g", "home"),
		Bottom:    b("G", "bottom", "G", "end"),
		Fold:      b("enter/space", "fold", "enter", "space"),
		FoldAll:   b("z", "fold all", "z"),
		UnfoldAll: b("Z", "unfold all", "Z"),
		Pair:      b("tab", "request/response", "tab"),
		PairBack:  b("shift+tab", "previous pane", "shift+tab"),
		NextRound: b("]", "next round", "]"),
		PrevRound: b("[", "previous round", "["),
		Root:      b("r", "root call", "r"),
		Open:      b("o/enter", "inspect nested request", "o", "enter"),
		Search:    b("/", "search", "/"),
		Next:      b("n", "next match", "n"),
		Prev:      b("N", "previous match", "N"),
		CopyBody:  b("y", "copy body", "y"),
		CopyPath:  b("Y", "copy jq path", "Y"),
		Back:      b("esc/q", "back", "esc", "q"),
	}
}
