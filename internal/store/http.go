package store

import (
	"fmt"
	"net/http"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// StatusHTTPError is the status of a call that its HTTP exchange answered
// with an error status and no JSON-RPC answer (401, 403, 404, 405, 502,
// ...). Its Error holds the HTTP status as Code and the status text (with
// WWW-Authenticate, when present) as Message.
const StatusHTTPError = "http-error"

// Failed reports whether a call status is a failure: a JSON-RPC error, a
// tool error, or an HTTP error status without a JSON-RPC answer. The
// summary's Errors and `mcptrail sessions` count these.
func Failed(status string) bool {
	return status == StatusError || status == StatusToolError || status == StatusHTTPError
}

// httpFrame handles what only frames of the HTTP tap carry, after the frame
// was decoded and before it is correlated as a message. It reports whether
// it correlated the frame itself (then *call is set and message must not
// run):
//   - a status frame (status: a request or response without a JSON-RPC
//     body, an error status whose body is not JSON-RPC, or a frame of the
//     HTTP+SSE transport that carries no message, sse.go) is not an
//     invalid frame but
//     one of kind KindHTTPStatus (frame sets it); an
//     s2c one ends its exchange's pending client call with StatusHTTPError
//     when the status is not a success;
//   - a JSON-RPC error in the response to a request answers that request
//     when it has no id, or when the status is an error (a 2025 server
//     answering a modern probe 400 with an error of another id): the
//     exchange says which one it is, and the probe is not also unanswered.
//
// The header rules are not correlation: internal/rules checks them.
func (s *Store) httpFrame(r *capture.Record, f *wire.Frame, status bool, call *int) bool {
	env := r.HTTP
	*call = -1
	if status {
		if f.Kind != wire.KindInvalid {
			// JSON that only looked like a message ({"error":"..."}).
			*f = wire.Frame{}
		}
		f.Problem = ""
		if r.Dir == capture.S2C {
			*call = s.httpStatus(r, f)
		}
		return true
	}
	if r.Dir == capture.C2S {
		return false
	}
	if f.Kind == wire.KindError && env.Exchange != "" && (f.ID.IsZero() || f.ID.IsNull() || !success(env.Status)) {
		if idx, ok := s.exchanges[env.Exchange]; ok {
			s.answer(s.calls.at(idx), r, f)
			*call = idx
			return true
		}
	}
	return false
}

// success reports whether an HTTP status is 2xx.
func success(status int) bool { return status >= 200 && status <= 299 }

// isStatusFrame reports whether r is an HTTP frame that carries no
// JSON-RPC message: an empty body, or on a non-2xx answer a body that is
// not JSON, or JSON that is no JSON-RPC message (an OAuth error such as
// {"error":"unauthorized"}: no "jsonrpc" member, and not a message whose
// only fault is that missing member while it names the id it answers).
func isStatusFrame(r *capture.Record, f *wire.Frame) bool {
	if f.Kind != wire.KindInvalid {
		return r.Dir == capture.S2C && !success(r.HTTP.Status) && notJSONRPC(r, f)
	}
	if len(r.Msg) == 0 && r.Text == "" && r.Raw == "" && r.B64 == nil {
		return true
	}
	return r.Dir == capture.S2C && !success(r.HTTP.Status) && (len(r.Msg) == 0 || notJSONRPC(r, f))
}

// notJSONRPC reports whether a frame's JSON body is a document that only
// looks like a message by accident.
func notJSONRPC(r *capture.Record, f *wire.Frame) bool {
	if f.Problem == "" || len(r.Msg) == 0 || r.Msg.Kind() != '{' || jsonraw.Member(r.Msg, "jsonrpc") != nil {
		return false
	}
	// Without "jsonrpc", an error naming an id is a malformed answer to
	// that id; {"error":{...}} alone answers nobody and is the status.
	return f.Problem != wire.ProblemVersion || jsonraw.Member(r.Msg, "id") == nil
}

// httpStatus ends the exchange's pending client call when the status is
// not a success, and returns the call's index or -1.
func (s *Store) httpStatus(r *capture.Record, f *wire.Frame) int {
	env := r.HTTP
	idx, ok := s.exchanges[env.Exchange]
	if !ok || env.Exchange == "" {
		return -1
	}
	if success(env.Status) {
		// A success without a body answers nothing (a request answered
		// 202 breaks rule 60) -- unless the call needs no answer or got
		// it elsewhere: the client cancelled it (a cancelled request is
		// owed none), or the answer comes on another stream (the POST's
		// SSE stream closed after a priming event and the client resumed
		// it with a GET and Last-Event-ID). Neither may be known yet, so
		// the finding is held until a snapshot decides (heldNoBody).
		f := finding.New(finding.HTTPRequestNoBody, r.Seq,
			"%s %s answered HTTP %d without a JSON-RPC response", s.calls.at(idx).Method, s.calls.at(idx).ID.Raw(), env.Status).OfCall(idx)
		switch {
		case s.opts.Forget:
			// A change feed has no snapshot to decide at: it is told now,
			// unless the call was cancelled already.
			if s.calls.at(idx).CancelSeq == 0 {
				s.raise(f)
			}
		default:
			if g, ok := s.graded(f); ok {
				s.noBody = append(s.noBody, g)
			}
		}
		return idx
	}
	c := s.calls.at(idx)
	c.ResponseSeq = r.Seq
	c.End = r.Time
	c.DurationMS = ms(c.End.Sub(c.Start))
	c.Status = StatusHTTPError
	msg := fmt.Sprintf("HTTP %d %s", env.Status, http.StatusText(env.Status))
	if a := env.Headers[mcp.HeaderWWWAuthenticate]; a != "" {
		msg += "; " + mcp.HeaderWWWAuthenticate + ": " + a
	}
	c.Error = &CallError{Code: int64(env.Status), Message: msg}
	if c.CancelSeq == 0 {
		s.inflight.remove(idx)
	}
	delete(s.exchanges, env.Exchange)
	s.probeAnswered(c)
	s.emitCall(ChangeCallAnswered, c)
	s.mrtrAnswered(c, &mcp.Result{}, false)
	s.completed(c)
	return idx
}

// exchangeRequest finds the request an s2c response answers in its own
// HTTP exchange: the client call POSTed in that exchange, when its id is
// the response's. Two stateless (2026-07-28) clients whose ids collide
// then pair apart; (dir, conn, id) is the fallback.
func (s *Store) exchangeRequest(r *capture.Record, f *wire.Frame) (int, bool) {
	if r.HTTP == nil || r.HTTP.Exchange == "" || r.Dir != capture.S2C {
		return 0, false
	}
	idx, ok := s.exchanges[r.HTTP.Exchange]
	if !ok || s.calls.at(idx).ID.Raw() != f.ID.Raw() {
		return 0, false
	}
	return idx, true
}

// standalone reports whether the client call prev and the request r, which
// share an id, are POSTs that stand alone: outside any legacy session, in
// different HTTP exchanges, prev's still open. Each pairs in its own
// exchange, so the shared id is no reuse (two stateless clients).
func (s *Store) standalone(prev int, r *capture.Record) bool {
	if r.HTTP == nil || r.HTTP.Exchange == "" || r.Conn != "" || r.Dir != capture.C2S {
		return false
	}
	for ex, idx := range s.exchanges {
		if idx == prev {
			return ex != r.HTTP.Exchange
		}
	}
	return false
}

// heldNoBody returns the held http-request-without-response findings
// (httpStatus) whose call is still owed its answer in calls: neither
// answered, on any stream, nor cancelled. Such a call is also pending.
func (s *Store) heldNoBody(calls *Calls) []finding.Finding {
	var out []finding.Finding
	for _, f := range s.noBody {
		if f.Call < 0 || f.Call >= calls.Len() {
			continue
		}
		if c := calls.At(f.Call); c.ResponseSeq == 0 && c.CancelSeq == 0 {
			out = append(out, f)
		}
	}
	return out
}
