package store

import (
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// request opens a call, then runs the era, capability, MRTR and legacy
// steps on it.
func (s *Store) request(r *capture.Record, f *wire.Frame) int {
	dir := dirOf(r)
	if f.ID.IsNull() {
		s.unreadable[dirIndex(dir)]++
		s.raise(finding.New(finding.NullID, r.Seq, "%s request %s has a null id", dir, f.Method))
		return -1
	}
	req := mcp.ParseRequest(f.Method, f.Params)
	idx := s.calls.len()
	c := s.calls.add(Call{
		Index: idx, Dir: dir, Conn: s.names.intern(r.Conn), ID: f.ID, Method: s.names.intern(f.Method),
		Target: s.names.intern(req.Target), RequestSeq: r.Seq, Start: r.Time,
		Status: StatusPending, Operation: -1, Parent: -1,
	})
	s.openKey(c, r)
	s.classify(c, &req)
	if dir == capture.S2C {
		s.attribute(c, r)
		s.emitOpened(c, &req)
		s.ledgerRequest(c, r, f.Params, &req)
		return idx
	}
	s.emitOpened(c, &req)
	s.negotiation(c)
	if s.clientDeclared(&req) {
		s.emitCapability(capture.C2S, c)
	}
	s.inflight.add(idx)
	if r.HTTP != nil && r.HTTP.Exchange != "" {
		s.exchanges[r.HTTP.Exchange] = idx
		if s.opts.Forget {
			s.forgetting.exchangeOf[idx] = r.HTTP.Exchange
		}
	}
	s.trackRetryable(c, &req)
	s.taskDeclared(c, &req)
	s.catalogRequest(c, f.Params)
	s.pairRetry(c, r, &req)
	s.taskRequest(c, r, f.Params)
	s.ledgerRequest(c, r, f.Params, &req)
	return idx
}

// negotiation follows a dual-era client's era probe (spec: the client
// sends server/discover first; any error means a legacy server, and it
// falls back to initialize): c, a client request, is remembered when it
// is the probe; when it is the initialize after a refused probe, the probe
// becomes negotiation, not a failed call.
func (s *Store) negotiation(c *Call) {
	switch c.Method {
	case mcp.MethodDiscover:
		s.probe = c.Index + 1
	case mcp.MethodInitialize:
		if s.probe == 0 {
			return
		}
		if p := s.calls.at(s.probe - 1); p != nil {
			if p.ResponseSeq == 0 {
				// The client stopped waiting for the probe: its answer,
				// when it comes, decides (probeAnswered).
				s.waitedProbe = s.probe
			} else {
				refusedProbe(p)
			}
		}
		s.probe = 0
	}
}

// probeAnswered settles c, just answered, when it is the probe the client
// followed with initialize before the answer came.
func (s *Store) probeAnswered(c *Call) {
	if s.waitedProbe == c.Index+1 {
		s.waitedProbe = 0
		refusedProbe(c)
	}
}

// refusedProbe marks p, an answered probe the client followed with
// initialize, as negotiation when the server refused the era.
func refusedProbe(p *Call) {
	if Failed(p.Status) && !serverFault(p) {
		p.Negotiation = true
	}
}

// serverFault reports whether a failed call was answered by an HTTP
// status that does not refuse the era: a 401 or 403 (authorization), a 5xx
// (the server, or the proxy for an unreachable target, failed). Only a
// JSON-RPC error or a 400, 404 or 405 says a server does not speak
// server/discover; any other probe failure stays a failed call even when
// the client goes on to initialize.
func serverFault(c *Call) bool {
	if c.Status != StatusHTTPError || c.Error == nil {
		return false
	}
	switch c.Error.Code {
	case 400, 404, 405:
		return false
	}
	return true
}

// openKey makes c the call its id refers to, flagging an id that is still
// in flight. The earlier call stays pending, but no answer can reach it any
// more, so it stops counting as in flight for legacy attribution.
func (s *Store) openKey(c *Call, r *capture.Record) {
	seq := r.Seq
	if prev, ok := s.byID.lookup(c.Dir, c.Conn, c.ID.Raw()); ok {
		p := s.calls.at(prev)
		if p.ResponseSeq == 0 && p.CancelSeq == 0 && !s.standalone(prev, r) {
			s.raise(finding.New(finding.IDReused, seq,
				"%s request %s reuses id %s of %s (seq %d), which is still in flight",
				c.Dir, c.Method, c.ID.Raw(), p.Method, p.RequestSeq).OfCall(c.Index))
			if p.Dir == capture.C2S {
				s.inflight.remove(prev)
			}
			if s.opts.Forget {
				s.toLimbo(prev)
			}
		}
	}
	s.byID.set(c.Dir, c.Conn, c.ID.Raw(), c.Index)
}

// response pairs a response or error with the request it answers.
func (s *Store) response(r *capture.Record, f *wire.Frame) int {
	dir := dirOf(r)
	if f.ID.IsZero() || f.ID.IsNull() {
		s.unpaired(r, f)
		return -1
	}
	idx, ok := s.exchangeRequest(r, f)
	if !ok {
		idx, ok = s.byID.lookup(opposite(dir), r.Conn, f.ID.Raw())
	}
	if !ok {
		s.raise(finding.New(finding.ResponseWithoutReq, r.Seq,
			"%s %s answers no %s request seen in the capture", dir, f.Describe(), opposite(dir)))
		return -1
	}
	c := s.calls.at(idx)
	if c.ResponseSeq != 0 {
		s.raise(finding.New(finding.DuplicateResponse, r.Seq,
			"%s %s answers %s again (first answer at seq %d)", dir, f.Describe(), c.Method, c.ResponseSeq).OfCall(idx))
		return idx
	}
	s.answer(c, r, f)
	return idx
}

// unpaired handles an answer with a null or absent id. An error reply to a
// frame nobody could read by id (JSON-RPC's parse error) is expected, and
// so is the body of an HTTP error status that rejects a POST carrying no
// request (a notification or a response: Streamable HTTP lets that body
// be a JSON-RPC error without id; a POSTed request would have been
// answered by httpFrame); any other is unpaired.
func (s *Store) unpaired(r *capture.Record, f *wire.Frame) {
	other := dirIndex(opposite(dirOf(r)))
	if f.Kind == wire.KindError && s.unreadable[other] > 0 {
		s.unreadable[other]--
		return
	}
	if f.Kind == wire.KindError && r.HTTP != nil && r.Dir == capture.S2C && !success(r.HTTP.Status) {
		return
	}
	s.raise(finding.New(finding.ResponseWithoutReq, r.Seq,
		"%s %s has no usable id and answers no unreadable frame", dirOf(r), f.Describe()))
}

// answer records a call's answer: status, timing, lateness, then the
// capability and MRTR steps that read results.
func (s *Store) answer(c *Call, r *capture.Record, f *wire.Frame) {
	c.ResponseSeq = r.Seq
	c.End = r.Time
	c.DurationMS = ms(c.End.Sub(c.Start))
	if c.Dir == capture.C2S && c.CancelSeq == 0 {
		s.inflight.remove(c.Index)
	}
	s.forgetExchange(c, r)
	var res mcp.Result
	declared := false
	if f.Kind == wire.KindError {
		c.Status = StatusError
		c.Error = &CallError{Code: f.ErrorCode, Message: f.ErrorMessage}
	} else {
		res = mcp.ParseResult(f.Result)
		c.ResultType = res.ResultType
		switch {
		case res.InputRequired():
			c.Status = StatusInputRequired
		case res.IsError:
			c.Status = StatusToolError
		default:
			c.Status = StatusOK
		}
		declared = s.serverDeclared(c, &res)
	}
	s.probeAnswered(c)
	s.emitCall(ChangeCallAnswered, c)
	if declared {
		s.emitCapability(capture.S2C, c)
	}
	if c.CancelSeq != 0 {
		c.Late = true
		s.emitCall(ChangeCallLate, c)
	}
	if c.CancelSeq != 0 && c.Method != methodListen { // listen.go
		s.raise(finding.New(finding.LateResult, r.Seq,
			"%s id %s answered after it was cancelled at seq %d", c.Method, c.ID.Raw(), c.CancelSeq).OfCall(c.Index))
	}
	s.catalogAnswered(c, r.Seq, f.Result)
	s.mrtrAnswered(c, &res, r.Redacted)
	s.taskAnswered(c, r, f, &res)
	s.ledgerAnswer(c, r, f, &res)
	s.completed(c)
}

// forgetExchange drops the HTTP exchange index entry of an answered call.
func (s *Store) forgetExchange(c *Call, r *capture.Record) {
	if r.HTTP == nil || r.HTTP.Exchange == "" {
		return
	}
	if idx, ok := s.exchanges[r.HTTP.Exchange]; ok && idx == c.Index {
		delete(s.exchanges, r.HTTP.Exchange)
	}
}

// cancel handles notifications/cancelled: the requester names one of its
// own requests, so the id is looked up in the cancel's own direction.
func (s *Store) cancel(r *capture.Record, f *wire.Frame) int {
	dir := dirOf(r)
	id := mcp.CancelledRequestID(f.Params)
	if id == "" {
		s.raise(finding.New(finding.CancelUnknown, r.Seq, "%s notifications/cancelled names no requestId", dir))
		return -1
	}
	idx, ok := s.byID.lookup(dir, r.Conn, id)
	if ok && s.taskCancelNotification(r, idx) {
		return -1
	}
	if ok && s.closedCancels[idx] {
		// The client closed the call's stream (its 2026-07-28 cancel on
		// HTTP) and also sent notifications/cancelled: one cancellation,
		// told twice, whichever came first.
		delete(s.closedCancels, idx)
		return idx
	}
	if !ok || s.calls.at(idx).ResponseSeq != 0 || s.calls.at(idx).CancelSeq != 0 {
		s.raise(finding.New(finding.CancelUnknown, r.Seq,
			"%s notifications/cancelled names request %s, which is not in flight", dir, id))
		return -1
	}
	s.cancelled(idx, r.Seq)
	return idx
}

// cancelled marks the call at idx cancelled by the record at seq.
func (s *Store) cancelled(idx int, seq uint64) {
	c := s.calls.at(idx)
	c.CancelSeq = seq
	c.Status = StatusCancelled
	s.emitCall(ChangeCallCancelled, c)
	if c.Dir == capture.C2S {
		s.inflight.remove(idx)
	}
	if s.opts.Forget {
		s.toLimbo(idx)
	}
}
