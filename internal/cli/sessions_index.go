package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/index"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// sessionQuery holds the flags that select sessions from the index.
type sessionQuery struct {
	label, since, transport string
	withElicitations        bool
	limit                   int
}

func (q *sessionQuery) add(fs *pflag.FlagSet) {
	fs.StringVar(&q.label, "label", "", "only the sessions with this label")
	fs.StringVar(&q.since, "since", "", "only the sessions started since: an age (7d, 12h) or a date (2026-11-01)")
	fs.StringVar(&q.transport, "transport", "", "only the sessions of this transport (stdio, http)")
	fs.BoolVar(&q.withElicitations, "with-elicitations", false, "only the sessions that asked the user something")
	fs.IntVar(&q.limit, "limit", 0, "only the newest N sessions (0: all)")
}

// filter checks the flags and returns the index filter they ask for.
func (q *sessionQuery) filter(now time.Time) (index.Filter, error) {
	f := index.Filter{Label: q.label, Transport: q.transport, WithElicitations: q.withElicitations, Limit: q.limit}
	if q.limit < 0 {
		return f, usagef("--limit must not be negative, got %d", q.limit)
	}
	if q.since != "" {
		t, err := index.ParseSince(q.since, now)
		if err != nil {
			return f, usagef("--since: %v", err)
		}
		f.Since = t
	}
	return f, nil
}

// openIndex opens the session index in the state directory and brings it
// in step with the sessions folder. When the index cannot be written (a
// read-only state directory) it says so and uses one in memory. Its
// findings are graded by the configured [rules] (the index re-reads every
// capture when they change). The caller closes it.
func openIndex(fac *Factory) (*index.Index, error) {
	io := fac.IOStreams
	state, err := fac.StateDir()
	if err != nil {
		return nil, err
	}
	reg, err := fac.Rules()
	if err != nil {
		return nil, err
	}
	warn := func(s string) { fmt.Fprintln(io.ErrOut, termtext.Escape(s)) }
	ix, err := index.Open(state, warn)
	if err != nil {
		warn(fmt.Sprintf("mcptrail: warning: %v; using an index in memory", err))
		if ix, err = index.OpenMemory(); err != nil {
			return nil, err
		}
	}
	ix.SetRules(reg)
	if _, err := ix.Sync(capture.SessionsDir(state)); err != nil {
		_ = ix.Close()
		return nil, err
	}
	return ix, nil
}

// indexedSessionRows returns the rows of the sessions f selects, read
// from the index (the files it could not read reported on stderr), with
// the labels redacted by red when it is not nil.
func indexedSessionRows(fac *Factory, f index.Filter, red redact.Redactor) ([]sessionRow, error) {
	io := fac.IOStreams
	ix, err := openIndex(fac)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	bad, err := ix.FileErrors()
	if err != nil {
		return nil, err
	}
	for _, fe := range bad {
		printError(io.ErrOut, fmt.Errorf("skipping %s: %w", fe.Path, errors.New(fe.Err)))
	}
	sessions, err := ix.Sessions(f)
	if err != nil {
		return nil, err
	}
	rows := make([]sessionRow, 0, len(sessions))
	for i := range sessions {
		s := &sessions[i]
		dmg := s.Damage
		if !s.Ended {
			// A torn last line is what a session still being written looks like.
			dmg.Torn, dmg.TornBytes = false, 0
		}
		reportDamage(io.ErrOut, s.Path, dmg)
		rows = append(rows, indexedRow(s, red))
	}
	return rows, nil
}

// indexedRow is the sessions row of s, its label redacted by red (nil:
// none) as the session record is when a capture is read redacted.
func indexedRow(s *index.Session, red redact.Redactor) sessionRow {
	row := sessionRow{
		ID: s.ID, Label: s.Label, Start: s.Start, Frames: s.Frames, Calls: s.Calls, ServerRequests: s.ServerRequests, Errors: s.Errors,
		Ended: s.Ended, Path: s.Path,
	}
	if red != nil {
		h := s.Header
		red.Reset()
		red.Record(&h)
		row.Label = h.Label
		if row.Label != s.Header.Label {
			row.Path = scrubbedPath(s.Path, s.Header.Label, row.Label, row.ID, red)
		}
	}
	return row
}

// indexEnded adds the capture at path, whose session just ended, to the
// session index when it is in the sessions folder (the only one the index
// covers). A failure is not the session's: the next reader of the index
// reads the capture itself, so it is not reported.
func indexEnded(fac *Factory, path string) {
	io := fac.IOStreams
	state, err := fac.StateDir()
	if err != nil {
		return
	}
	dir := capture.SessionsDir(state)
	if filepath.Clean(filepath.Dir(path)) != filepath.Clean(dir) {
		return
	}
	reg, err := fac.Rules()
	if err != nil {
		return
	}
	ix, err := index.Open(state, func(s string) { fmt.Fprintln(io.ErrOut, termtext.Escape(s)) })
	if err != nil {
		return
	}
	defer ix.Close()
	ix.SetRules(reg)
	_ = ix.Update(filepath.Join(dir, filepath.Base(path)))
}
