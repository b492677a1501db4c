package termtable

// Style is the colour of a cell's text when the table's colour is on.
type Style uint8

const (
	Plain  Style = iota // no colour
	Good                // green: ok, accept
	Bad                 // red: error, decline
	Warn                // yellow: pending, warning, cancel
	Note                // cyan: info
	Faint               // dim: a dash, an absent value
	header              // bold: column headings
)

// sgr is the Select Graphic Rendition parameter of s, "" for none.
func (s Style) sgr() string {
	switch s {
	case Good:
		return "32"
	case Bad:
		return "31"
	case Warn:
		return "33"
	case Note:
		return "36"
	case Faint:
		return "2"
	case header:
		return "1"
	}
	return ""
}

// Status returns the style of a call's or an operation's status, as the
// store names them: ok, tool-error, error, http-error, input-required,
// pending, cancelled.
func Status(status string) Style {
	switch status {
	case "ok":
		return Good
	case "error", "tool-error", "http-error":
		return Bad
	case "pending", "cancelled", "input-required":
		return Warn
	}
	return Plain
}

// Severity returns the style of a finding's severity: error, warning,
// info.
func Severity(severity string) Style {
	switch severity {
	case "error":
		return Bad
	case "warning":
		return Warn
	case "info":
		return Note
	}
	return Plain
}

// Action returns the style of the answer to an elicitation: accept,
// decline, cancel, or a status in parentheses ("(pending)").
func Action(action string) Style {
	switch action {
	case "accept":
		return Good
	case "decline":
		return Bad
	case "cancel", "(pending)", "(required)":
		return Warn
	case "(error)":
		return Bad
	}
	return Plain
}

// Paint returns text wrapped in s's SGR sequence when on is true and s has
// a colour; else text as it is. It is for lines outside a table (the check
// and diff reports) that colour as tables do.
func (s Style) Paint(text string, on bool) string {
	if !on || text == "" || s.sgr() == "" {
		return text
	}
	return "\x1b[" + s.sgr() + "m" + text + "\x1b[0m"
}
