package textexport

import (
	"bufio"
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// The calls table can have hundreds of thousands of rows, which
// text/tabwriter would hold in memory whole (several times their size) to
// align them. writeCallRows aligns them the same way in two passes over
// the snapshot instead: one to measure the columns, one to write. Its
// output is byte for byte what table (tabwriter with padding 2, then
// trailing spaces trimmed) produces.

// callColumns is the number of aligned columns; the last cell, NOTES, is
// not aligned.
const callColumns = 9

const callHeader = "  #\tDIR\tID\tMETHOD\tTARGET\tERA\tSTATUS\tDURATION\tSEQ\tNOTES"

// writeCallRows writes the header and one row per call, aligned. It
// reports false, having written nothing, when a cell holds a character
// tabwriter treats specially, so that the caller can use a table instead.
func writeCallRows(w *bufio.Writer, calls *store.Calls) bool {
	var widths [callColumns]int
	line := []byte(callHeader)
	if !measure(line, &widths) {
		return false
	}
	for i := range calls.Len() {
		c := calls.At(i)
		line = appendCallRow(line[:0], &c)
		if !measure(line, &widths) {
			return false
		}
	}
	out := writeAligned(w, nil, []byte(callHeader), &widths)
	for i := range calls.Len() {
		c := calls.At(i)
		line = appendCallRow(line[:0], &c)
		out = writeAligned(w, out, line, &widths)
	}
	return true
}

// measure widens widths to fit line's cells, reporting false when line
// does not have exactly callColumns tab-terminated cells or holds another
// character tabwriter interprets.
func measure(line []byte, widths *[callColumns]int) bool {
	if bytes.ContainsAny(line, "\n\v\f\xff") {
		return false
	}
	for col := range callColumns {
		end := bytes.IndexByte(line, '\t')
		if end < 0 {
			return false
		}
		widths[col] = max(widths[col], utf8.RuneCount(line[:end]))
		line = line[end+1:]
	}
	return bytes.IndexByte(line, '\t') < 0
}

// writeAligned writes line with each aligned cell padded to its column's
// width plus two, and the line's trailing spaces trimmed. It formats into
// buf and returns it for reuse.
func writeAligned(w *bufio.Writer, buf, line []byte, widths *[callColumns]int) []byte {
	b := buf[:0]
	for col := range callColumns {
		end := bytes.IndexByte(line, '\t')
		b = append(b, line[:end]...)
		for n := widths[col] + 2 - utf8.RuneCount(line[:end]); n > 0; n-- {
			b = append(b, ' ')
		}
		line = line[end+1:]
	}
	b = append(b, line...)
	b = append(bytes.TrimRight(b, " "), '\n')
	w.Write(b)
	return b
}

// appendCallRow appends a call's cells as writeCalls' table row.
func appendCallRow(b []byte, c *store.Call) []byte {
	b = append(b, "  "...)
	b = strconv.AppendInt(b, int64(c.Index), 10)
	b = append(b, '\t')
	b = termtext.Append(b, string(c.Dir))
	b = append(b, '\t')
	b = append(b, idText(c.ID)...)
	b = append(b, '\t')
	b = termtext.Append(b, c.Method)
	b = append(b, '\t')
	b = termtext.Append(b, dash(c.Target))
	b = append(b, '\t')
	b = termtext.Append(b, dash(c.Era))
	b = append(b, '\t')
	b = termtext.Append(b, c.Status)
	b = append(b, '\t')
	b = append(b, callDuration(c)...)
	b = append(b, '\t', '#')
	b = strconv.AppendUint(b, c.RequestSeq, 10)
	b = append(b, "→"...)
	if c.ResponseSeq != 0 {
		b = append(b, '#')
		b = strconv.AppendUint(b, c.ResponseSeq, 10)
	}
	b = append(b, '\t')
	return append(b, callNotes(c)...)
}
