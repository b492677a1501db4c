package overlay

import "testing"

// TestLedgerNamesKeepWidth checks preamble 4 of issue 28 in code: from 80
// columns on, the calling tool (ROOT) and the question (MESSAGE) keep at
// least minName cells, with or without the wait/tool column.
func TestLedgerNamesKeepWidth(t *testing.T) {
	t.Parallel()
	for _, mrtr := range []bool{false, true} {
		for w := 80; w <= 240; w++ {
			l := ledgerWidths(w, mrtr)
			used := 0
			for _, c := range l.cells("", "", "", "", "", "", "", "", "", nil, nil) {
				used += c.w + 1
			}
			if msg := w - used; l.root < minName || msg < minName {
				t.Errorf("ledgerWidths(%d, mrtr %v): root %d, message %d cells, want ≥ %d", w, mrtr, l.root, msg, minName)
			}
			if mrtr != (l.wait > 0) {
				t.Errorf("ledgerWidths(%d, mrtr %v): wait column %d", w, mrtr, l.wait)
			}
		}
	}
}
