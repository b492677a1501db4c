package index

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Filter selects sessions. Zero fields select everything.
type Filter struct {
	// Label selects the sessions with this label exactly.
	Label string
	// Since selects the sessions that started at or after it.
	Since time.Time
	// Before selects the sessions that started before it.
	Before time.Time
	// Transport selects the sessions of this transport (stdio, http).
	Transport string
	// WithElicitations selects the sessions that asked the user at least
	// one question.
	WithElicitations bool
	// Limit keeps the newest Limit sessions; zero keeps all.
	Limit int
}

// where returns the SQL condition (over sessions aliased s) and its
// arguments.
func (f *Filter) where() (string, []any) {
	conds := []string{"1"}
	var args []any
	if f.Label != "" {
		conds, args = append(conds, "s.label = ?"), append(args, f.Label)
	}
	if !f.Since.IsZero() {
		conds, args = append(conds, "s.start >= ?"), append(args, f.Since.UnixNano())
	}
	if !f.Before.IsZero() {
		conds, args = append(conds, "s.start < ?"), append(args, f.Before.UnixNano())
	}
	if f.Transport != "" {
		conds, args = append(conds, "s.transport = ?"), append(args, f.Transport)
	}
	if f.WithElicitations {
		conds = append(conds, "s.asked > 0")
	}
	return strings.Join(conds, " AND "), args
}

const sessionCols = `s.sid, s.path, s.ord, s.id, s.label, s.transport, s.target, s.tool_version, s.start, s."end", s.ended,
	s.records, s.frames, s.bytes, s.calls, s.server_requests, s.errors, s.asked, s.client_name, s.client_version,
	s.elicit_form, s.elicit_url, s.server_name, s.server_version, s.damage, s.header`

type scanner interface{ Scan(...any) error }

func scanSession(sc scanner) (int64, Session, error) {
	var s Session
	var sid, start, end int64
	var damage, header []byte
	err := sc.Scan(&sid, &s.Path, &s.Ord, &s.ID, &s.Label, &s.Transport, &s.Target, &s.ToolVersion, &start, &end, &s.Ended,
		&s.Records, &s.Frames, &s.Bytes, &s.Calls, &s.ServerRequests, &s.Errors, &s.Asked, &s.ClientName, &s.ClientVersion,
		&s.ElicitForm, &s.ElicitURL, &s.ServerName, &s.ServerVersion, &damage, &header)
	if err != nil {
		return 0, s, err
	}
	s.Start, s.End = time.Unix(0, start).UTC(), time.Unix(0, end).UTC()
	if err := json.Unmarshal(damage, &s.Damage); err != nil {
		return 0, s, fmt.Errorf("decoding damage: %w", err)
	}
	if err := json.Unmarshal(header, &s.Header, jsontext.AllowInvalidUTF8(true)); err != nil {
		return 0, s, fmt.Errorf("decoding the session record: %w", err)
	}
	return sid, s, nil
}

// Sessions returns the sessions f selects, newest first (a file's
// sessions in file order when they started at once).
func (ix *Index) Sessions(f Filter) ([]Session, error) {
	var out []Session
	err := ix.retry(func() error {
		out = nil
		return ix.eachSession(f, func(_ int64, s Session) { out = append(out, s) })
	})
	return out, err
}

func (ix *Index) eachSession(f Filter, fn func(int64, Session)) error {
	where, args := f.where()
	q := "SELECT " + sessionCols + " FROM sessions s WHERE " + where + " ORDER BY s.start DESC, s.path DESC, s.ord"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := ix.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return fmt.Errorf("reading the session index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		sid, s, err := scanSession(rows)
		if err != nil {
			return fmt.Errorf("reading the session index: %w", err)
		}
		fn(sid, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the session index: %w", err)
	}
	return nil
}

// FileError is a capture file that could not be read whole, and why.
type FileError struct {
	Path string
	Err  string
}

// FileErrors lists the indexed files whose reading failed, newest name
// first.
func (ix *Index) FileErrors() ([]FileError, error) {
	var out []FileError
	err := ix.retry(func() error {
		out = nil
		rows, err := ix.db.QueryContext(context.Background(), "SELECT path, error FROM files WHERE error != '' ORDER BY path DESC")
		if err != nil {
			return fmt.Errorf("reading the session index: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var fe FileError
			if err := rows.Scan(&fe.Path, &fe.Err); err != nil {
				return fmt.Errorf("reading the session index: %w", err)
			}
			out = append(out, fe)
		}
		return rows.Err()
	})
	return out, err
}
