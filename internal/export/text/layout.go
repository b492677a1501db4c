package textexport

import (
	"bufio"
	"fmt"
	"io"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// Layout is how the export's tables (calls, elicitations, catalog, the
// per-method and per-tool summary) fit the screen they are read on. The
// zero Layout writes every column whole and no colour.
type Layout struct {
	// Width is the width, in display columns, tables are cut to fit: long
	// cells are cut with "…" and the least useful columns dropped. 0 means
	// no limit.
	Width int
	// Color reports whether statuses, actions and error counts are
	// coloured with SGR sequences, and table headings bold.
	Color bool
}

// SetLayout sets how w's tables are laid out; call it before Finish.
func (w *Writer) SetLayout(l Layout) { w.layout = l }

// SummaryLayout is Summary with its tables laid out by l.
func SummaryLayout(w io.Writer, s *store.Snapshot, l Layout) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, title(s.Session.ID, s.Session.Label))
	writeBody(bw, s, l)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing text summary: %w", err)
	}
	return nil
}

// render writes t with rows as l lays it out. A write error surfaces at
// w's Flush, as every section's does.
func (l Layout) render(w *bufio.Writer, t *termtable.Table, rows termtable.Rows) {
	t.Color = l.Color
	_ = t.RenderRows(w, l.Width, rows)
}

// cells is a table body held whole, for the small tables.
type cells [][]termtable.Cell

func (c cells) Len() int { return len(c) }

func (c cells) Row(i int, row []termtable.Cell) []termtable.Cell { return append(row[:0], c[i]...) }

// text is a cell of escaped text, unstyled.
func text(s string) termtable.Cell { return termtable.Cell{Text: s, Escaped: true} }

// styled is a cell of escaped text in style st.
func styled(s string, st termtable.Style) termtable.Cell {
	return termtable.Cell{Text: s, Style: st, Escaped: true}
}
