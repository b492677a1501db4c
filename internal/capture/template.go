package capture

import (
	"strconv"
	"strings"
	"time"
)

// PathFields are the values of a capture path template's fields.
type PathFields struct {
	// Start is the session's start, {time} (in UTC, 20060102T150405Z).
	Start time.Time
	// Label is the session's label, {label}.
	Label string
	// ID is the session id, {id}.
	ID string
	// PID is the process id of the tap, {pid}.
	PID int
}

// TemplateError is a capture path template ExpandPath cannot fill: a {
// without its }, or a field it does not know.
type TemplateError struct {
	// Field is the unknown field's name; "" for an unclosed {.
	Field string
}

// Error says what is wrong with the template.
func (e *TemplateError) Error() string {
	if e.Field == "" {
		return "unclosed { (fields: {time}, {label}, {pid}, {id})"
	}
	return "unknown field {" + e.Field + "} (fields: {time}, {label}, {pid}, {id})"
}

// ExpandPath fills the fields of the capture path template tmpl: {time},
// {label}, {pid} and {id}; any other {name}, or a { without its }, is a
// *TemplateError. Every field is made file safe (FileSafe): it adds no
// separator and never makes a component "." or "..", so the expanded path
// has the template's directories, whatever a label (from a server's
// command, say) holds.
func ExpandPath(tmpl string, f *PathFields) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String(), nil
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return "", &TemplateError{}
		}
		b.WriteString(tmpl[:i])
		var value string
		switch field := tmpl[i+1 : i+j]; field {
		case "time":
			value = f.Start.UTC().Format("20060102T150405Z")
		case "label":
			value = f.Label
		case "pid":
			value = strconv.Itoa(f.PID)
		case "id":
			value = f.ID
		default:
			return "", &TemplateError{Field: field}
		}
		b.WriteString(FileSafe(value))
		tmpl = tmpl[i+j+1:]
	}
}
