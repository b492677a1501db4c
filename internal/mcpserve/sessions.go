package mcpserve

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/index"
)

// sessionsArgs are the sessions tool's arguments: the index's filters
// (mcptrail sessions' flags) and the cursor.
type sessionsArgs struct {
	Label            string `json:"label"`
	Since            string `json:"since"`
	Transport        string `json:"transport"`
	WithElicitations bool   `json:"with_elicitations"`
	Cursor           string `json:"cursor"`
}

// sessionRow is one session as the sessions tool lists it: the row of
// `mcptrail sessions --json` without its path, which may hold the label
// redaction hides (the id names the session to every tool and command),
// plus its transport and how many questions it asked.
type sessionRow struct {
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	Transport string    `json:"transport"`
	Start     time.Time `json:"start"`
	Frames    int       `json:"frames"`
	// Calls counts the client's calls, an MRTR operation once;
	// ServerRequests the server's requests to the client, apart.
	Calls          int  `json:"calls"`
	ServerRequests int  `json:"server_requests"`
	Errors         int  `json:"errors"`
	Asked          int  `json:"asked"`
	Ended          bool `json:"ended"`
}

func (s *Server) sessions(raw []byte) (*page, error) {
	var a sessionsArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	f := index.Filter{Label: a.Label, Transport: a.Transport, WithElicitations: a.WithElicitations}
	if a.Since != "" {
		t, err := index.ParseSince(a.Since, s.opts.Now())
		if err != nil {
			return nil, fmt.Errorf("since: %w", err)
		}
		f.Since = t
	}
	found, err := s.indexed(f)
	if err != nil {
		return nil, err
	}
	rows := make([]sessionRow, len(found))
	for i := range found {
		rows[i] = s.row(&found[i])
	}
	start, err := cursor(a.Cursor, len(rows))
	if err != nil {
		return nil, err
	}
	return &page{
		head: func(int) ([]byte, error) { return []byte("{}"), nil },
		text: func(int) string {
			return plural(len(rows), "session") + ", newest first (id label transport start; counts):\n"
		},
		list: &list{name: "sessions", n: len(rows),
			item: func(i, limit int) ([]byte, error) { return marshal(&rows[i], limit) },
			line: func(i, limit int) string { return rows[i].line(limit) },
		},
		start: start,
	}, nil
}

// row is the listed row of s, its label redacted as the session record
// is when the capture is read redacted.
func (s *Server) row(is *index.Session) sessionRow {
	r := sessionRow{ID: is.ID, Label: is.Label, Transport: is.Transport, Start: is.Start.UTC(), Frames: is.Frames,
		Calls: is.Calls, ServerRequests: is.ServerRequests, Errors: is.Errors, Asked: is.Asked, Ended: is.Ended}
	if red := s.opts.Redactor; red != nil {
		h := is.Header
		red.Reset()
		red.Record(&h)
		r.Label = h.Label
	}
	return r
}

func (r *sessionRow) line(limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s  %s  %s; %s, %s, %s, %s, %s",
		show(r.ID, limit), show(r.Label, limit), show(r.Transport, limit), r.Start.Format(time.RFC3339),
		plural(r.Calls, "call"), plural(r.ServerRequests, "server request"), plural(r.Errors, "error"),
		plural(r.Asked, "question"), plural(r.Frames, "frame"))
	if !r.Ended {
		b.WriteString(" (no end)")
	}
	return b.String()
}
