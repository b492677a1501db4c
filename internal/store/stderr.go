package store

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// StderrLine is one line the server wrote on its stderr, as the store
// hands it to Options.OnStderr. The store counts stderr lines
// (Counts.Stderr) but keeps none: a server may log without end, so a view
// that shows them takes each one as it is ingested and keeps it where its
// memory stays bounded (the exports spool them).
type StderrLine struct {
	// Index is the line's position among the session's stderr lines,
	// counting from 0.
	Index int
	// Time is when the tap read the line.
	Time time.Time
	// Record is the stderr record as ingested (redacted, when the reader
	// redacts): Text holds the line, or B64 its bytes when they are not
	// UTF-8 (Record.Bytes returns either); NoEOL is set on a last line
	// that ended without a newline; Size, when set, is its size as read.
	Record *capture.Record
}

// stderr counts one stderr record and hands it to Options.OnStderr.
func (s *Store) stderr(r *capture.Record) {
	i := s.counts.Stderr
	s.counts.Stderr++
	if s.opts.OnStderr != nil {
		s.opts.OnStderr(&StderrLine{Index: i, Time: r.Time, Record: r})
	}
}
