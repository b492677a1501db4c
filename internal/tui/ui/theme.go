package ui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Theme holds the styles every screen draws with. The colours are the
// terminal's own 16 (so light and dark terminals each show them in their
// palette) plus a few greys picked by background; NO_COLOR and terminals
// without colour are handled by Bubble Tea's renderer, which strips what
// the terminal cannot show.
type Theme struct {
	Dark bool

	Title    lipgloss.Style // screen titles, the header
	Header   lipgloss.Style // table column headers
	Selected lipgloss.Style // the selected row
	Dim      lipgloss.Style // secondary text: times, ids, hints
	Key      lipgloss.Style // key names in the help and footer
	Error    lipgloss.Style // inline errors (a bad filter)
	Live     lipgloss.Style // the live marker

	OK      lipgloss.Style // status ok, action accept
	Bad     lipgloss.Style // error, tool-error, decline, severity error
	Warn    lipgloss.Style // input-required, late, cancel, severity warning
	Pending lipgloss.Style // pending (highlighted)
	Info    lipgloss.Style // cancelled, severity info

	// JSON syntax colours for the inspector.
	JSONKey, JSONString, JSONNumber, JSONBool, JSONNull, JSONPunct lipgloss.Style
}

// NewTheme returns the theme for a dark (or light) terminal background.
func NewTheme(dark bool) *Theme {
	ld := lipgloss.LightDark(dark)
	grey := ld(lipgloss.Color("244"), lipgloss.Color("245"))
	sel := ld(lipgloss.Color("254"), lipgloss.Color("237"))
	ansi := func(n string) color.Color { return lipgloss.Color(n) }
	s := lipgloss.NewStyle
	return &Theme{
		Dark:     dark,
		Title:    s().Bold(true),
		Header:   s().Bold(true).Underline(true),
		Selected: s().Background(sel).Bold(true),
		Dim:      s().Foreground(grey),
		Key:      s().Foreground(ansi("6")).Bold(true),
		Error:    s().Foreground(ansi("1")).Bold(true),
		Live:     s().Foreground(ansi("2")).Bold(true),

		OK:      s().Foreground(ansi("2")),
		Bad:     s().Foreground(ansi("1")),
		Warn:    s().Foreground(ansi("3")),
		Pending: s().Foreground(ansi("5")).Bold(true),
		Info:    s().Foreground(ansi("4")),

		JSONKey:    s().Foreground(ansi("4")),
		JSONString: s().Foreground(ansi("2")),
		JSONNumber: s().Foreground(ansi("6")),
		JSONBool:   s().Foreground(ansi("5")),
		JSONNull:   s().Foreground(grey),
		JSONPunct:  s().Foreground(grey),
	}
}

// Status is the style of a call status (store.Status*: ok, error,
// tool-error, input-required, pending, cancelled, late, http-error).
func (t *Theme) Status(status string) lipgloss.Style {
	switch status {
	case "ok":
		return t.OK
	case "error", "tool-error", "http-error":
		return t.Bad
	case "input-required", "late":
		return t.Warn
	case "pending":
		return t.Pending
	case "cancelled":
		return t.Info
	}
	return t.Dim
}

// Action is the style of an elicitation outcome (accept, decline, cancel,
// pending).
func (t *Theme) Action(action string) lipgloss.Style {
	switch action {
	case "accept":
		return t.OK
	case "decline":
		return t.Bad
	case "cancel":
		return t.Warn
	case "pending", "":
		return t.Pending
	}
	return t.Dim
}

// Severity is the style of a finding severity (error, warning, info).
func (t *Theme) Severity(sev string) lipgloss.Style {
	switch sev {
	case "error":
		return t.Bad
	case "warning":
		return t.Warn
	case "info":
		return t.Info
	}
	return t.Dim
}
