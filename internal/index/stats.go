package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"
)

// Groupings of Stats.
const (
	ByTool     = "tool"
	ByQuestion = "question"
	ByClient   = "client"
	ByServer   = "server"
	ByDay      = "day"
)

// Bys lists the groupings, the default first.
func Bys() []string { return []string{ByTool, ByQuestion, ByClient, ByServer, ByDay} }

// Column kinds: how a cell is shown.
const (
	Text  = "text"  // a string
	Int   = "int"   // an int
	Rate  = "rate"  // a float64 fraction, nil when there is nothing to divide
	Milli = "ms"    // a float64 of milliseconds, nil when there is none
	Share = "share" // like Rate
)

// Column is one column of a stats table; Name is its JSON and CSV name.
type Column struct {
	Name string
	Kind string
}

// Table is what Stats returns: cells are string, int, float64 or nil.
type Table struct {
	Columns []Column
	Rows    [][]any
}

// data is what stats reads of the selected sessions.
type data struct {
	sessions map[int64]*Session
	calls    []callRow
	answers  []answerRow
}

type callRow struct {
	sid            int64
	method, target string
	server         bool
	calls, errors  int
	durations      []float64
}

type answerRow struct {
	sid int64
	AnswerGroup
}

// Stats aggregates the sessions f selects by by (ByTool ...).
func (ix *Index) Stats(f Filter, by string) (*Table, error) {
	var t *Table
	err := ix.retry(func() error {
		needCalls := by != ByQuestion && by != ByClient
		needAnswers := by != ByTool
		d, err := ix.load(f, needCalls, needAnswers)
		if err != nil {
			return err
		}
		switch by {
		case ByTool:
			t = byTool(d)
		case ByQuestion:
			t = byQuestion(d)
		case ByClient:
			t = byClient(d)
		case ByServer:
			t = bySession(d, "server", serverName)
		case ByDay:
			t = bySession(d, "day", func(s *Session) string { return s.Start.Format("2006-01-02") })
		default:
			return fmt.Errorf("unknown grouping %q (want one of %v)", by, Bys())
		}
		return nil
	})
	return t, err
}

func (ix *Index) load(f Filter, needCalls, needAnswers bool) (*data, error) {
	d := &data{sessions: map[int64]*Session{}}
	where, args := f.where()
	if f.Limit > 0 {
		where += fmt.Sprintf(" AND s.sid IN (SELECT s.sid FROM sessions s WHERE %s ORDER BY s.start DESC, s.path DESC, s.ord LIMIT %d)", where, f.Limit)
		args = append(args, args...)
	}
	// Only what the groupings read of a session.
	err := ix.query(`SELECT s.sid, s.label, s.start, s.client_name, s.client_version, s.elicit_form, s.elicit_url, s.server_name
		FROM sessions s WHERE `+where, args, func(sc scanner, _ *sql.RawBytes) error {
		var sid, start int64
		var s Session
		if err := sc.Scan(&sid, &s.Label, &start, &s.ClientName, &s.ClientVersion, &s.ElicitForm, &s.ElicitURL, &s.ServerName); err != nil {
			return err
		}
		s.Start = time.Unix(0, start).UTC()
		d.sessions[sid] = &s
		return nil
	})
	if err != nil {
		return nil, err
	}
	if needCalls {
		err := ix.query("SELECT c.sid, c.method, c.target, c.server, c.calls, c.errors, c.durations FROM calls c JOIN sessions s ON s.sid = c.sid WHERE "+where, args,
			func(sc scanner, blob *sql.RawBytes) error {
				var c callRow
				if err := sc.Scan(&c.sid, &c.method, &c.target, &c.server, &c.calls, &c.errors, blob); err != nil {
					return err
				}
				c.durations = decodeFloats(nil, *blob)
				d.calls = append(d.calls, c)
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	if needAnswers {
		err := ix.query(`SELECT a.sid, a.tool, a.question, a.mode, a.asked, a.accept, a.decline, a.cancel, a.pending,
			a.elapsed, a.wait_ms, a.op_ms FROM answers a JOIN sessions s ON s.sid = a.sid WHERE `+where, args,
			func(sc scanner, blob *sql.RawBytes) error {
				var a answerRow
				if err := sc.Scan(&a.sid, &a.Tool, &a.Question, &a.Mode, &a.Asked, &a.Accept, &a.Decline, &a.Cancel, &a.Pending,
					blob, &a.WaitMS, &a.OpMS); err != nil {
					return err
				}
				a.ElapsedMS = decodeFloats(nil, *blob)
				d.answers = append(d.answers, a)
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// query runs q and calls row for each row, with a scratch buffer for a
// blob.
func (ix *Index) query(q string, args []any, row func(scanner, *sql.RawBytes) error) error {
	rows, err := ix.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return fmt.Errorf("reading the session index: %w", err)
	}
	defer rows.Close()
	var blob sql.RawBytes // valid until the next row: decoded at once
	for rows.Next() {
		if err := row(rows, &blob); err != nil {
			return fmt.Errorf("reading the session index: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the session index: %w", err)
	}
	return nil
}

// serverName names a session's server: what it said in serverInfo, else
// the session's label, else "(unknown)".
func serverName(s *Session) string {
	switch {
	case s.ServerName != "":
		return s.ServerName
	case s.Label != "":
		return s.Label
	}
	return "(unknown)"
}

// ratio is a/b, nil when b is zero.
func ratio(a, b float64) any {
	if b == 0 {
		return nil
	}
	return a / b
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
