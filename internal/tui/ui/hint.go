package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// Hint is one key a screen accepts now, as its footer names it: the key
// and a word or two. Every screen and overlay lists its own (a Hints
// method), most useful first; Footer draws them. The help overlay keeps
// the long descriptions (key.Binding's help).
type Hint struct {
	Key  string // as drawn: "enter", "↑/k"; "" hides the hint
	Desc string // a word or two: "inspect", "close"
}

// HintFor is b's key with desc, or, when desc is "", b's help text. A
// disabled b gives the zero Hint, which Footer skips.
func HintFor(b key.Binding, desc string) Hint {
	if !b.Enabled() {
		return Hint{}
	}
	h := b.Help()
	if desc == "" {
		desc = h.Desc
	}
	return Hint{Key: h.Key, Desc: desc}
}

// Footer is the one-line key footer every screen draws: the hints that fit
// in w cells, in order, two spaces apart; a hint that does not fit ends
// the line (the first are the most useful).
func Footer(th *Theme, hs []Hint, w int) string {
	var b strings.Builder
	width := 0
	for _, h := range hs {
		if h.Key == "" {
			continue
		}
		k, d := Cell(h.Key, 16), Cell(h.Desc, 32)
		n := Width(k) + 1 + Width(d)
		if width > 0 {
			n += 2
		}
		if width+n > w {
			break
		}
		if width > 0 {
			b.WriteString("  ")
		}
		b.WriteString(th.Key.Render(k) + " " + th.Dim.Render(d))
		width += n
	}
	return b.String()
}
