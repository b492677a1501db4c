package jsonexport

import (
	"io"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// SessionLedger is the ledger of one session in a listing.
type SessionLedger struct {
	// Session is the session id, written first in each of its rows; ""
	// writes no session member (a listing of one session).
	Session string
	// Rows are the session's ledger rows, in order.
	Rows []store.LedgerRow
}

// WriteLedgerList writes the rows of ledgers as one JSON array, one row
// (AppendLedgerRow) per line, escaped for a terminal (termtext): what
// `mcptrail ledger --json` prints.
func WriteLedgerList(w io.Writer, ledgers []SessionLedger) error {
	b := []byte{'['}
	n := 0
	for _, l := range ledgers {
		for i := range l.Rows {
			if n > 0 {
				b = append(b, ',')
			}
			b = append(b, '\n')
			b = AppendLedgerRow(b, l.Session, &l.Rows[i])
			n++
		}
	}
	if n > 0 {
		b = append(b, '\n')
	}
	jw := termtext.NewJSONWriter(w)
	if _, err := jw.Write(append(b, "]\n"...)); err != nil {
		return err
	}
	return jw.Flush()
}
