// Package termtable lays out tables for a terminal: aligned columns that
// fit a width, long cells cut with "…" at display width (wide runes take
// two columns), the least useful columns dropped when cutting is not
// enough, and cells coloured with SGR sequences only when colour is on.
// It sits at the very end of the data flow, beside termtext, between a
// view (ledger, sessions, rules, the text export) and the writer: every
// cell's text passes termtext.Escape on its way out unless the caller says
// it already did. A Table is not safe for concurrent use; rendering reads
// rows twice (once to measure, once to write) and holds none of them.
package termtable

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
)

// Align is where a cell's text sits in its column.
type Align uint8

const (
	Left  Align = iota // text first, padding after
	Right              // padding first: numbers and durations
)

// Column describes one column of a Table.
type Column struct {
	// Header is the column's heading, written as is (it comes from the
	// program, not the wire).
	Header string
	// Align places the cells; the zero value is Left.
	Align Align
	// Drop orders the columns that go when the width is too short even
	// with every cuttable column at its Min: the highest Drop goes first
	// (the rightmost of equals first). Zero means the column never goes.
	Drop int
	// Min is the width below which a cuttable column is cut only once
	// every droppable column is gone; 0 means 8. Past that, cuttable
	// columns are cut down to 4 (or their natural width, when narrower).
	Min int
	// Cut reports whether the column's cells may be cut with "…" to fit;
	// a column that may not keeps its natural width.
	Cut bool
	// Width is the width the column takes at least, however narrow its
	// cells are; 0 means as wide as its widest cell or header.
	Width int
	// Elide reports whether the column goes before any other when the
	// table does not fit, if it says nothing a row does not: the same text
	// in every row (of two or more), or only "-" and empty cells.
	Elide bool
	// Yield reports whether the column goes before any cell is cut: a
	// hash, a secondary time, what a person can do without when a name
	// would lose characters. Yield columns go in Drop order.
	Yield bool
}

// NameMin is the Min of a column of names or messages, what a person
// reads: at 80 columns it keeps at least 20 characters.
const NameMin = 20

// defaultMin is a cuttable column's Min when it sets none; hardMin is how
// narrow the last resort cuts one.
const (
	defaultMin = 8
	hardMin    = 4
)

// Cell is one cell of a row.
type Cell struct {
	// Text is the cell's text: one line, escaped by the table unless
	// Escaped.
	Text string
	// Style colours the text when the table's colour is on.
	Style Style
	// Escaped reports whether Text already passed termtext.Escape (or
	// holds only the program's own text), so the table writes it as is.
	Escaped bool
}

// Rows is a table's body, read twice when rendering: Row appends row i's
// cells, one per column (missing ones are empty), to cells[:0] and
// returns it.
type Rows interface {
	Len() int
	Row(i int, cells []Cell) []Cell
}

// Table is a header and its rows.
type Table struct {
	// Columns are the table's columns, left to right.
	Columns []Column
	// Indent is written before every line, and counts in the width.
	Indent string
	// Gap is the number of spaces between columns; 0 means 2.
	Gap int
	// Color reports whether cells are written with their Style's SGR
	// sequence, and headers bold.
	Color bool
	// NoHeader leaves the header line out.
	NoHeader bool
	rows     [][]Cell
}

// Add appends a row of cells to the table's own rows.
func (t *Table) Add(cells ...Cell) { t.rows = append(t.rows, cells) }

// AddText appends a row of unstyled cells holding texts.
func (t *Table) AddText(texts ...string) {
	row := make([]Cell, len(texts))
	for i, s := range texts {
		row[i] = Cell{Text: s}
	}
	t.rows = append(t.rows, row)
}

// Len reports the number of rows added.
func (t *Table) Len() int { return len(t.rows) }

// Render writes the table with its added rows to w in at most width
// display columns; 0 means no limit (every column whole).
func (t *Table) Render(w io.Writer, width int) error {
	return t.RenderRows(w, width, tableRows{t.rows})
}

// tableRows serves a Table's own rows as Rows.
type tableRows struct{ rows [][]Cell }

func (r tableRows) Len() int { return len(r.rows) }

func (r tableRows) Row(i int, cells []Cell) []Cell { return append(cells[:0], r.rows[i]...) }

// RenderRows writes the table with rows as its body to w in at most width
// display columns; 0 means no limit. A table whose columns cannot fit even
// cut to their Min and with every droppable column gone is written as
// narrow as it goes, wider than width.
func (t *Table) RenderRows(w io.Writer, width int, rows Rows) error {
	natural, idle := t.measure(rows)
	widths := t.fit(natural, idle, width)
	bw := bufio.NewWriter(w)
	var line []byte
	var cells []Cell
	if !t.NoHeader {
		cells = cells[:0]
		for _, c := range t.Columns {
			cells = append(cells, Cell{Text: c.Header, Style: header, Escaped: true})
		}
		line = t.appendLine(line[:0], cells, widths)
		bw.Write(line)
	}
	for i := range rows.Len() {
		cells = rows.Row(i, cells[:0])
		line = t.appendLine(line[:0], cells, widths)
		bw.Write(line)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing table: %w", err)
	}
	return nil
}

// measure returns each column's natural width (its widest cell, header
// or Width) and whether it is idle: an Elide column that says nothing.
func (t *Table) measure(rows Rows) (natural []int, idle []bool) {
	natural = make([]int, len(t.Columns))
	idle = make([]bool, len(t.Columns))
	first := make([]string, len(t.Columns))
	same := make([]bool, len(t.Columns))
	blank := make([]bool, len(t.Columns))
	for i := range same {
		same[i], blank[i] = true, true
	}
	for i, c := range t.Columns {
		natural[i] = c.Width
		if !t.NoHeader {
			natural[i] = max(natural[i], Width(c.Header))
		}
	}
	var cells []Cell
	for r := range rows.Len() {
		cells = rows.Row(r, cells[:0])
		for i := range natural {
			text := ""
			if i < len(cells) {
				text = cellText(&cells[i])
			}
			natural[i] = max(natural[i], Width(text))
			if r == 0 {
				first[i] = text
			}
			same[i] = same[i] && text == first[i]
			blank[i] = blank[i] && (text == "" || text == "-")
		}
	}
	for i, c := range t.Columns {
		idle[i] = c.Elide && rows.Len() > 0 && (blank[i] || same[i] && rows.Len() > 1)
	}
	return natural, idle
}

// fit returns the width each column is written at, -1 for a dropped
// column, for a table of natural widths in width display columns.
func (t *Table) fit(natural []int, idle []bool, width int) []int {
	widths := slices.Clone(natural)
	if width <= 0 {
		return widths
	}
	if t.total(widths) > width {
		for i := range widths {
			if idle[i] {
				widths[i] = -1
			}
		}
	}
	for t.total(widths) > width {
		drop := -1
		for i, c := range t.Columns {
			if c.Yield && widths[i] >= 0 && (drop < 0 || c.Drop >= t.Columns[drop].Drop) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		widths[drop] = -1
	}
	for t.total(widths) > width {
		if t.cut(widths, natural, width, false) {
			break
		}
		drop := t.dropCandidate(widths)
		if drop < 0 {
			t.cut(widths, natural, width, true) // else as narrow as it goes
			break
		}
		widths[drop] = -1
		for i, w := range widths {
			if w >= 0 {
				widths[i] = natural[i] // a dropped column may leave others whole
			}
		}
	}
	return widths
}

// total is the width of a line with columns of widths.
func (t *Table) total(widths []int) int {
	n, cols := Width(t.Indent), 0
	for _, w := range widths {
		if w >= 0 {
			n += w
			cols++
		}
	}
	if cols > 1 {
		n += (cols - 1) * t.gap()
	}
	return n
}

func (t *Table) gap() int {
	if t.Gap <= 0 {
		return 2
	}
	return t.Gap
}

// minWidth is how narrow column i may be cut, given its natural width:
// to its Min, or, hard, to hardMin.
func (t *Table) minWidth(i, natural int, hard bool) int {
	c := &t.Columns[i]
	if !c.Cut {
		return natural
	}
	m := c.Min
	switch {
	case hard:
		m = hardMin
	case m <= 0:
		m = defaultMin
	}
	return min(max(m, 1), natural)
}

// cut narrows the cuttable columns so the line fits width, the widest
// first (a level no cuttable column passes), and reports whether it
// fits. When it cannot, widths are left as they were, unless hard: then
// every cuttable column is cut as far as it goes.
func (t *Table) cut(widths, natural []int, width int, hard bool) bool {
	excess := t.total(widths) - width
	room := 0
	for i, w := range widths {
		if w >= 0 {
			room += w - t.minWidth(i, natural[i], hard)
		}
	}
	if room < excess && !hard {
		return false
	}
	// Lower the level one column at a time until the excess is gone.
	for ; excess > 0 && room > 0; excess, room = excess-1, room-1 {
		widest := -1
		for i, w := range widths {
			if w > t.minWidth(i, natural[i], hard) && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		widths[widest]--
	}
	return excess <= 0
}

// dropCandidate returns the column to drop next: the highest Drop, the
// rightmost of equals; -1 when no column may go.
func (t *Table) dropCandidate(widths []int) int {
	best := -1
	for i, c := range t.Columns {
		if widths[i] < 0 || c.Drop <= 0 {
			continue
		}
		if best < 0 || c.Drop >= t.Columns[best].Drop {
			best = i
		}
	}
	return best
}

// appendLine appends one line of cells laid out in widths, its trailing
// spaces trimmed, and a newline.
func (t *Table) appendLine(b []byte, cells []Cell, widths []int) []byte {
	b = append(b, t.Indent...)
	first := true
	for i, w := range widths {
		if w < 0 {
			continue
		}
		if !first {
			b = appendSpaces(b, t.gap())
		}
		first = false
		var c Cell
		if i < len(cells) {
			c = cells[i]
		}
		text := Cut(cellText(&c), w)
		pad := w - Width(text)
		if t.Columns[i].Align == Right {
			b = appendSpaces(b, pad)
		}
		b = t.appendStyled(b, text, c.Style)
		if t.Columns[i].Align != Right {
			b = appendSpaces(b, pad)
		}
	}
	b = bytes.TrimRight(b, " ")
	return append(b, '\n')
}

func (t *Table) appendStyled(b []byte, text string, s Style) []byte {
	if !t.Color || text == "" || s.sgr() == "" {
		return append(b, text...)
	}
	b = append(b, "\x1b["...)
	b = append(b, s.sgr()...)
	b = append(b, 'm')
	b = append(b, text...)
	return append(b, "\x1b[0m"...)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}
