package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// put replaces what the index holds of one file with fe, in tx.
func put(ctx context.Context, tx *sql.Tx, fe *fileEntries) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM files WHERE path = ?", fe.path); err != nil {
		return err
	}
	msg := ""
	if fe.err != nil {
		msg = fe.err.Error()
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO files(path, size, mtime, error) VALUES(?, ?, ?, ?)",
		fe.path, fe.size, fe.mtimeNS, msg); err != nil {
		return err
	}
	for i := range fe.entries {
		if err := putEntry(ctx, tx, &fe.entries[i]); err != nil {
			return err
		}
	}
	return nil
}

func putEntry(ctx context.Context, tx *sql.Tx, e *Entry) error {
	s := &e.Session
	damage, err := json.Marshal(s.Damage)
	if err != nil {
		return fmt.Errorf("encoding damage: %w", err)
	}
	header, err := json.Marshal(&s.Header, jsontext.AllowInvalidUTF8(true))
	if err != nil {
		return fmt.Errorf("encoding the session record: %w", err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO sessions(path, ord, id, label, transport, target, tool_version,
		start, "end", ended, records, frames, bytes, calls, server_requests, errors, asked, client_name, client_version,
		elicit_form, elicit_url, server_name, server_version, damage, header)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		s.Path, s.Ord, s.ID, s.Label, s.Transport, s.Target, s.ToolVersion,
		s.Start.UnixNano(), s.End.UnixNano(), s.Ended, s.Records, s.Frames, s.Bytes, s.Calls, s.ServerRequests, s.Errors, s.Asked,
		s.ClientName, s.ClientVersion, s.ElicitForm, s.ElicitURL, s.ServerName, s.ServerVersion, damage, header)
	if err != nil {
		return err
	}
	sid, err := res.LastInsertId()
	if err != nil {
		return err
	}
	for _, g := range e.Calls {
		if _, err := tx.ExecContext(ctx, "INSERT INTO calls(sid, method, target, server, calls, errors, durations) VALUES(?,?,?,?,?,?,?)",
			sid, g.Method, g.Target, g.Server, g.Calls, g.Errors, encodeFloats(g.DurationsMS)); err != nil {
			return err
		}
	}
	for _, q := range e.Ledger {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger(sid, root_method, tool, key, message, mode, era, action, status,
			asked, elapsed_ms, wait_ms, op_ms) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			sid, q.RootMethod, q.Tool, q.Key, q.Message, q.Mode, q.Era, q.Action, q.Status,
			q.AskedAt.UnixNano(), q.ElapsedMS, q.WaitMS, q.OpMS); err != nil {
			return err
		}
	}
	for _, a := range e.Answers {
		if _, err := tx.ExecContext(ctx, `INSERT INTO answers(sid, tool, question, mode, asked, accept, decline, cancel,
			pending, elapsed, wait_ms, op_ms) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)`,
			sid, a.Tool, a.Question, a.Mode, a.Asked, a.Accept, a.Decline, a.Cancel, a.Pending,
			encodeFloats(a.ElapsedMS), a.WaitMS, a.OpMS); err != nil {
			return err
		}
	}
	for _, c := range e.Catalog {
		if _, err := tx.ExecContext(ctx, "INSERT INTO catalog(sid, kind, key, hash) VALUES(?,?,?,?)", sid, c.Kind, c.Key, c.Hash); err != nil {
			return err
		}
	}
	for _, f := range e.Findings {
		if _, err := tx.ExecContext(ctx, "INSERT INTO findings(sid, rule, severity, n) VALUES(?,?,?,?)", sid, f.Rule, f.Severity, f.N); err != nil {
			return err
		}
	}
	return nil
}

// encodeFloats packs vs as little-endian float64s.
func encodeFloats(vs []float64) []byte {
	b := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// decodeFloats appends the float64s packed in b to dst; a trailing partial
// value is ignored.
func decodeFloats(dst []float64, b []byte) []float64 {
	dst = slices.Grow(dst, len(b)/8)
	for len(b) >= 8 {
		dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	return dst
}
