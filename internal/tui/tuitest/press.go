package tuitest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// namedKey returns the key named s, as tea.Key.String spells it, if it
// has a name.
func namedKey(s string) (tea.Key, bool) {
	codes := map[string]rune{"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace}
	switch s {
	case "shift+tab":
		return tea.Key{Code: tea.KeyTab, Mod: tea.ModShift}, true
	case "space":
		return tea.Key{Code: tea.KeySpace, Text: " "}, true
	}
	c, ok := codes[s]
	return tea.Key{Code: c}, ok
}

// Press returns the key press named s, as a terminal sends it and as
// tea.Key.String spells it: a key name ("up", "pgdown", "enter", "esc",
// "tab", "shift+tab", "backspace", "space"), ctrl and a letter
// ("ctrl+u"), or the text typed ("j", "G" comes shifted, "a b" is a
// paste-like run of text in one message). It panics on "": no key has
// that name.
func Press(s string) tea.KeyPressMsg {
	if k, ok := namedKey(s); ok {
		return tea.KeyPressMsg(k)
	}
	if c, ok := strings.CutPrefix(s, "ctrl+"); ok && utf8.RuneCountInString(c) == 1 {
		r, _ := utf8.DecodeRuneInString(c)
		return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl}
	}
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		panic("tuitest.Press: no key is named \"\"")
	}
	if n == len(s) && unicode.IsUpper(r) { // as the terminal decoder sends shift+letter
		return tea.KeyPressMsg{Code: unicode.ToLower(r), ShiftedCode: r, Mod: tea.ModShift, Text: s}
	}
	return tea.KeyPressMsg{Code: r, Text: s}
}

// Keys returns the key presses named, in order, as messages.
func Keys(names ...string) []tea.Msg {
	msgs := make([]tea.Msg, len(names))
	for i, n := range names {
		msgs[i] = Press(n)
	}
	return msgs
}

// Model is a screen model: its Update returns the same type.
type Model[M any] interface {
	Update(msg tea.Msg) (M, tea.Cmd)
}

// Send hands m the key presses named (Press), in order, and returns the
// model and the last press's command.
func Send[M Model[M]](m M, keys ...string) (M, tea.Cmd) {
	var cmd tea.Cmd
	for _, k := range keys {
		m, cmd = m.Update(Press(k))
	}
	return m, cmd
}
