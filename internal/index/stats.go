package index

import (
	"context"
	"fmt"
	"math"
	"slices"
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
	ledger   []ledgerRow
}

type callRow struct {
	sid            int64
	method, target string
	calls, errors  int
	durations      []float64
}

type ledgerRow struct {
	sid int64
	Question
}

// Stats aggregates the sessions f selects by by (ByTool ...).
func (ix *Index) Stats(f Filter, by string) (*Table, error) {
	var t *Table
	err := ix.retry(func() error {
		d, err := ix.load(f)
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

func (ix *Index) load(f Filter) (*data, error) {
	d := &data{sessions: map[int64]*Session{}}
	if err := ix.eachSession(f, func(sid int64, s Session) { d.sessions[sid] = &s }); err != nil {
		return nil, err
	}
	where, args := f.where()
	if f.Limit > 0 {
		where += fmt.Sprintf(" AND s.sid IN (SELECT s.sid FROM sessions s WHERE %s ORDER BY s.start DESC, s.path DESC, s.ord LIMIT %d)", where, f.Limit)
		args = append(args, args...)
	}
	ctx := context.Background()
	rows, err := ix.db.QueryContext(ctx, "SELECT c.sid, c.method, c.target, c.calls, c.errors, c.durations FROM calls c JOIN sessions s ON s.sid = c.sid WHERE "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	var blob []byte
	for rows.Next() {
		var c callRow
		if err := rows.Scan(&c.sid, &c.method, &c.target, &c.calls, &c.errors, &blob); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading the session index: %w", err)
		}
		c.durations = decodeFloats(nil, blob)
		d.calls = append(d.calls, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	rows, err = ix.db.QueryContext(ctx, `SELECT l.sid, l.root_method, l.tool, l.key, l.message, l.mode, l.era, l.action, l.status,
		l.elapsed_ms, l.wait_ms, l.op_ms FROM ledger l JOIN sessions s ON s.sid = l.sid WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l ledgerRow
		if err := rows.Scan(&l.sid, &l.RootMethod, &l.Tool, &l.Key, &l.Message, &l.Mode, &l.Era, &l.Action, &l.Status,
			&l.ElapsedMS, &l.WaitMS, &l.OpMS); err != nil {
			return nil, fmt.Errorf("reading the session index: %w", err)
		}
		d.ledger = append(d.ledger, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	return d, nil
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

// Percentile is the nearest-rank p-th percentile of sorted vs (the
// summary's rule); nil when vs is empty.
func Percentile(sorted []float64, p float64) any {
	n := len(sorted)
	if n == 0 {
		return nil
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	return sorted[max(1, min(rank, n))-1]
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
