package textexport

import (
	"strconv"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// The calls table can have hundreds of thousands of rows: termtable reads
// them from the snapshot twice (to measure, then to write) and holds none.

// callTable is the calls table's columns, the most useful kept longest:
// ERA goes first, then SEQ, DIR, ID, NOTES and TARGET; the index, method,
// status and duration stay.
func callTable() *termtable.Table {
	return &termtable.Table{Indent: "  ", Columns: []termtable.Column{
		{Header: "#"},
		{Header: "DIR", Drop: 4},
		{Header: "ID", Cut: true, Min: 6, Drop: 3},
		{Header: "METHOD", Cut: true, Min: 20},
		{Header: "TARGET", Cut: true, Min: 16, Drop: 1},
		{Header: "ERA", Drop: 6},
		{Header: "STATUS"},
		{Header: "DURATION"},
		{Header: "SEQ", Drop: 5},
		{Header: "NOTES", Cut: true, Min: 24, Drop: 2},
	}}
}

// callRows serves a snapshot's calls as table rows.
type callRows struct{ calls *store.Calls }

func (r callRows) Len() int { return r.calls.Len() }

func (r callRows) Row(i int, row []termtable.Cell) []termtable.Cell {
	cv := r.calls.At(i)
	c := &cv
	return append(row[:0], text(strconv.Itoa(c.Index)), text(cell(string(c.Dir))), text(idText(c.ID)),
		text(cell(c.Method)), text(cell(dash(c.Target))), text(cell(dash(c.Era))),
		styled(cell(c.Status), termtable.Status(c.Status)), text(callDuration(c)), text(seqText(c)), text(callNotes(c)))
}
