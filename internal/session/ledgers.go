package session

import (
	"fmt"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
)

// StoredLedger is the elicitation ledger of one session of a capture
// file in the sessions directory.
type StoredLedger struct {
	// ID is the session's id; the file's id (capture.SessionFileID) when
	// its session record has none.
	ID string
	// Path is the capture file that holds the session.
	Path string
	// Rows are the ledger's rows (store.Snapshot.Ledger).
	Rows []store.LedgerRow
}

// Ledgers reads the ledger of every session in the sessions directory
// dir (each session of a file that holds several), newest file first
// and newest session first within a file, redacted by red when it is
// not nil. damage is called with what a session's reader skipped; a file
// that is not a readable capture is passed to skip with why, and the
// ledgers read from it before the error are kept. An unreadable
// directory is capture.SessionFiles' error.
func Ledgers(dir string, red redact.Redactor, damage func(path string, d capture.Damage), skip func(path string, err error)) ([]StoredLedger, error) {
	files, err := capture.SessionFiles(dir)
	if err != nil {
		return nil, err
	}
	var out []StoredLedger
	for _, path := range files {
		ls, err := FileLedgers(path, red, damage)
		if err != nil {
			skip(path, err)
		}
		out = append(out, ls...)
	}
	return out, nil
}

// FileLedgers returns the ledgers of the sessions in the capture file at
// path, newest first, and those read before an error (Each's, or
// "loading capture" and the reader's); damage, when not nil, is called
// with what each session's reader skipped.
func FileLedgers(path string, red redact.Redactor, damage func(path string, d capture.Damage)) ([]StoredLedger, error) {
	var out []StoredLedger
	err := Each(path, func(r *capture.Reader) error {
		s, err := Load(r, &Options{NoChecks: true, Redactor: red})
		if err != nil {
			return fmt.Errorf("loading capture: %w", err)
		}
		snap := s.Snapshot
		if damage != nil {
			damage(path, snap.Session.Damage)
		}
		id := snap.Session.ID
		if id == "" {
			id = capture.SessionFileID(path)
		}
		out = append(out, StoredLedger{ID: id, Path: path, Rows: snap.Ledger.Slice()})
		return nil
	})
	slices.Reverse(out)
	return out, err
}
