package store

import (
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// frame counts, decodes (unless decoded is its message already) and
// correlates one frame record, then hands it to Options.Checks and
// Options.OnFrame.
func (s *Store) frame(r *capture.Record, decoded *wire.Frame) {
	size := frameSize(r)
	s.frames.add(r, &s.opts)
	if !s.opts.Forget {
		s.lines.add(r.Seq, r.Line)
	}
	s.counts.Frames++
	s.counts.Bytes += int64(size)
	if r.Dir == capture.S2C {
		s.counts.S2C++
	} else {
		s.counts.C2S++
	}
	var f wire.Frame
	if decoded != nil {
		f = *decoded
	} else {
		f = Decode(&s.decoder, r, false)
	}
	s.setMsg(&f)
	kind := Kind(f.Kind)
	var status, sse bool
	if r.HTTP != nil {
		status, sse = s.sseFrame(r, &f)
		status = status || isStatusFrame(r, &f)
	}
	if status {
		kind = KindHTTPStatus
	}
	var inExchange bool
	if r.HTTP != nil && r.HTTP.Exchange != "" {
		_, inExchange = s.exchanges[r.HTTP.Exchange]
	}
	var call int
	if r.HTTP == nil || !s.httpFrame(r, &f, status, &call) {
		call = s.message(r, &f)
	}
	if s.opts.OnFrame != nil || len(s.opts.Checks) > 0 {
		s.handOut(r, &f, kind, size, call, inExchange, sse)
	}
}

// handOut gives the correlated frame to Options.Checks, then OnFrame.
func (s *Store) handOut(r *capture.Record, f *wire.Frame, kind Kind, size, call int, inExchange, sse bool) {
	// One Frame (and one copy of the message) is reused: it is valid only
	// during the call, and a new one per frame would be most of the
	// store's garbage.
	s.msg = *f
	s.view = Frame{
		Seq: r.Seq, Time: r.Time, Dir: r.Dir, Conn: r.Conn,
		Kind: kind, ID: f.ID, Method: f.Method, Size: size,
		Problem: f.Problem, Call: call, Record: r, Msg: &s.msg, InExchange: inExchange, SSE: sse,
		Answers: s.ledger.frameAnswers(),
	}
	if call >= 0 {
		if c := s.calls.at(call); c != nil {
			s.view.CallMethod, s.view.CallEra = c.Method, c.Era
		}
	}
	for _, c := range s.opts.Checks {
		c.Check(&s.view, s.raiseFn)
	}
	if s.opts.OnFrame != nil {
		s.opts.OnFrame(&s.view)
	}
	s.view, s.msg = Frame{}, wire.Frame{}
	s.ledger.dropAnswers()
}

// frameSize is the frame's size as recorded, else the length of its bytes.
func frameSize(r *capture.Record) int {
	switch {
	case r.Size > 0:
		return r.Size
	case r.Raw != "":
		return len(r.Raw)
	case len(r.Msg) > 0:
		return len(r.Msg)
	case r.B64 != nil:
		return len(r.B64)
	}
	return len(r.Text)
}

// message correlates one decoded message (or a batch of them) and returns
// the index of the call it opened, answered or cancelled, or -1.
func (s *Store) message(r *capture.Record, f *wire.Frame) int {
	s.setMsg(f)
	switch f.Kind {
	case wire.KindInvalid:
		s.counts.Invalid++
		s.unreadable[dirIndex(r.Dir)]++
		s.raise(finding.New(finding.InvalidFrame, r.Seq, "%s frame is not a JSON-RPC message: %s", r.Dir, f.Problem))
		return -1
	case wire.KindBatch:
		s.batch(r, f)
		return -1
	}
	if f.Problem != "" {
		s.raise(finding.New(finding.NonConformingFrame, r.Seq, "%s %s: %s", r.Dir, f.Describe(), f.Problem))
	}
	switch f.Kind {
	case wire.KindRequest:
		return s.request(r, f)
	case wire.KindNotification:
		return s.notification(r, f)
	default:
		return s.response(r, f)
	}
}

// batch flags a JSON-RPC batch and correlates its elements one by one.
func (s *Store) batch(r *capture.Record, f *wire.Frame) {
	if len(f.Batch) == 0 {
		s.unreadable[dirIndex(r.Dir)]++ // JSON-RPC answers it with one null-id error
		s.raise(finding.New(finding.BatchFrame, r.Seq, "%s frame is an empty JSON-RPC batch", r.Dir))
		return
	}
	s.raise(finding.New(finding.BatchFrame, r.Seq,
		"%s frame is a JSON-RPC batch of %d messages (batches exist only in 2025-03-26)", r.Dir, len(f.Batch)))
	for i := range f.Batch {
		s.message(r, &f.Batch[i])
		s.calls.flush() // a huge batch must not make the hot calls many
	}
}

// notification handles a notification; only cancellations correlate.
func (s *Store) notification(r *capture.Record, f *wire.Frame) int {
	s.counts.Notifications++
	s.ledgerNotification(r, f)
	s.taskNotification(r, f)
	s.catalogNotified(r, f.Method)
	if f.Method == mcp.MethodCancelled {
		return s.cancel(r, f)
	}
	return -1
}

// dirIndex maps a direction to 0 (c2s) or 1 (s2c).
func dirIndex(d capture.Dir) int {
	if d == capture.S2C {
		return 1
	}
	return 0
}

// dirOf is the record's direction; anything but s2c counts as c2s.
func dirOf(r *capture.Record) capture.Dir {
	if r.Dir == capture.S2C {
		return capture.S2C
	}
	return capture.C2S
}

// opposite returns the other direction: the one a response to a request
// sent in d travels.
func opposite(d capture.Dir) capture.Dir {
	if d == capture.S2C {
		return capture.C2S
	}
	return capture.S2C
}
