package index

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/units"
)

// Cell spells one cell of a column of kind: rates as percentages when human, else as
// fractions; a missing value as "-" when human, else "".
func Cell(kind string, v any, human bool) string {
	switch x := v.(type) {
	case nil:
		if human {
			return "-"
		}
		return ""
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case float64:
		switch {
		case human && (kind == Rate || kind == Share):
			return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
		case human:
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// WriteJSON writes the rows as a JSON array of objects keyed by the
// column names, in column order, escaped for a terminal (termtext).
func (t *Table) WriteJSON(w io.Writer) error {
	var b []byte
	b = append(b, '[')
	for i, r := range t.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		for j, v := range r {
			if j > 0 {
				b = append(b, ',')
			}
			k, err := json.Marshal(t.Columns[j].Name)
			if err != nil {
				return err
			}
			val, err := json.Marshal(v, jsontext.AllowInvalidUTF8(true))
			if err != nil {
				return fmt.Errorf("encoding stats: %w", err)
			}
			b = append(append(append(b, k...), ':'), val...)
		}
		b = append(b, '}')
	}
	jw := termtext.NewJSONWriter(w)
	if _, err := jw.Write(append(b, ']', '\n')); err != nil {
		return err
	}
	return jw.Flush()
}

// WriteCSV writes the table as CSV, every cell that is not a number
// neutralised by csvText.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = csvText(csvName(c))
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range t.Rows {
		rec := make([]string, len(r))
		for i, v := range r {
			rec[i] = Cell(t.Columns[i].Kind, v, false)
			switch v.(type) {
			case int, float64:
			default:
				rec[i] = csvText(rec[i])
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvName is c's CSV heading, which says what a number is: a rate or a
// share ends in _rate or _share (accept_rate next to the count asked), a
// duration in _ms.
func csvName(c Column) string {
	suffix := map[string]string{Rate: "_rate", Share: "_share", Milli: "_ms"}[c.Kind]
	if suffix == "" || strings.HasSuffix(c.Name, suffix) || c.Name == strings.TrimPrefix(suffix, "_") {
		return c.Name
	}
	return c.Name + suffix
}

// csvText keeps a text cell from being read as a formula by a spreadsheet
// (OWASP, CSV injection): one that starts with =, +, -, @, a tab or a
// carriage return gets a leading '. Numbers are written as they are, so a
// negative one stays a number: strconv spells no formula.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// WriteMarkdown writes the table as a Markdown table, numbers aligned
// right, every cell escaped for a terminal (termtext).
func (t *Table) WriteMarkdown(w io.Writer) error {
	var sb strings.Builder
	row := func(cells []string) {
		sb.WriteString("|")
		for _, c := range cells {
			sb.WriteString(" " + termtext.Escape(strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " ")) + " |")
		}
		sb.WriteString("\n")
	}
	head, rule := make([]string, len(t.Columns)), make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i], rule[i] = c.Name, "---"
		if c.Kind != Text {
			rule[i] = "---:"
		}
	}
	row(head)
	row(rule)
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = Cell(t.Columns[i].Kind, v, true)
		}
		row(cells)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteText writes the table for a terminal of width columns (0: whole),
// coloured when color: headers in capitals with the unit (ACCEPT%, P50),
// durations through units, numbers aligned right. When the width is
// short, names and messages keep at least termtable.NameMin columns: the
// columns that say nothing (one server, one mode, a rate of 0% in every
// row) go first, then the p95, the rarer answers and the errors.
func (t *Table) WriteText(w io.Writer, color bool, width int) error {
	tt := &termtable.Table{Color: color}
	names := 0
	for _, c := range t.Columns {
		if c.Kind == Text && c.Name != "server" {
			names++
		}
	}
	for _, c := range t.Columns {
		tt.Columns = append(tt.Columns, textColumn(c, names > 0))
	}
	for _, r := range t.Rows {
		cells := make([]termtable.Cell, len(r))
		for i, v := range r {
			text := Cell(t.Columns[i].Kind, v, true)
			if ms, ok := v.(float64); ok && t.Columns[i].Kind == Milli {
				text = units.Millis(ms)
			}
			cells[i] = termtable.Cell{Text: text}
		}
		tt.Add(cells...)
	}
	return tt.Render(w, width)
}

// textColumn is how column c is laid out in a text table; others reports
// whether the table has text columns besides the server.
func textColumn(c Column, others bool) termtable.Column {
	col := termtable.Column{Header: strings.ToUpper(strings.TrimSuffix(c.Name, "_ms"))}
	switch c.Kind {
	case Text:
		col.Elide = true
		if c.Name == "server" && others {
			col.Drop = 5 // the tool and question tell rows apart
		}
		switch c.Name {
		case "modes":
			col.Drop = 1
		case "kind", "version", "day":
		default:
			col.Cut, col.Min = true, termtable.NameMin
		}
		return col
	case Rate, Share:
		name := strings.TrimSuffix(strings.TrimSuffix(c.Name, "_rate"), "_share")
		col.Header, col.Elide = strings.ToUpper(name)+"%", true
	}
	col.Align = termtable.Right
	switch c.Name {
	case "p95_ms":
		col.Drop = 4
	case "pending", "cancel":
		col.Drop = 3
	case "decline":
		col.Drop = 2
	case "errors", "error_rate", "sessions":
		col.Drop = 1
	}
	return col
}
