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
		head[i] = csvText(c.Name)
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
// coloured when color: headers in capitals, numbers aligned right, text
// cut to fit.
func (t *Table) WriteText(w io.Writer, color bool, width int) error {
	tt := &termtable.Table{Color: color}
	for i, c := range t.Columns {
		col := termtable.Column{Header: strings.ToUpper(c.Name)}
		if c.Kind != Text {
			col.Align = termtable.Right
		} else if i > 0 {
			col.Cut, col.Min = true, 12
		}
		tt.Columns = append(tt.Columns, col)
	}
	for _, r := range t.Rows {
		cells := make([]termtable.Cell, len(r))
		for i, v := range r {
			cells[i] = termtable.Cell{Text: Cell(t.Columns[i].Kind, v, true)}
		}
		tt.Add(cells...)
	}
	return tt.Render(w, width)
}
