package httpproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// bodyTap wraps a request body or a non-SSE response body. The bytes pass
// through unchanged while a copy accumulates for the body's one frame
// record. The frame's seq is reserved as soon as the body's JSON value is
// complete (before those bytes are handed on) or, for anything else, when
// the body ends; it is filled when the body ends or is closed.
type bodyTap struct {
	rc  io.ReadCloser
	p   *Proxy
	ex  *exchange
	dir capture.Dir
	env *capture.HTTP

	// readMu serialises the reads of rc: the transport may still be
	// reading a request body (in its own goroutine) when the handler's
	// finishRequest drains it, and Go's server panics on two concurrent
	// reads of one body ("invalid concurrent Body.Read call"). drained,
	// with readMu, is set by finishRequest: after it the handler has
	// returned, and rc must not be read any more.
	readMu  sync.Mutex
	drained bool

	mu    sync.Mutex
	buf   []byte         // the body so far, up to capture.SpoolAbove
	spool *capture.Spool // the body so far, once it grew past that
	size  int64          // the body's length so far
	scan  jsonScan
	slot  *slot
	done  bool
	// peeked holds what decide read from the client and the transport
	// has not read yet; peekErr, the error that ended decide's reads, is
	// the transport's once peeked is used up. handed counts the bytes the
	// transport read. With readMu held.
	peeked  []byte
	peekErr error
	handed  int64
	// raw is a request body as recorded, kept for the exchange's life
	// to name its method should the answer fail (failure.go); "" for a
	// response, a spooled body, or when nothing is captured.
	raw string
}

func (b *bodyTap) Read(p []byte) (int, error) {
	b.readMu.Lock()
	defer b.readMu.Unlock()
	if b.drained {
		return 0, errDrained
	}
	if len(b.peeked) > 0 || b.peekErr != nil {
		n := copy(p, b.peeked)
		b.peeked = b.peeked[n:]
		b.handed += int64(n)
		if len(b.peeked) == 0 && b.peekErr != nil {
			return n, b.peekErr
		}
		return n, nil
	}
	n, err := b.rc.Read(p)
	b.handed += int64(n)
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > 0 && !b.done {
		b.keep(p[:n])
		if b.slot == nil && b.scan.feed(p[:n]) && b.isMCP() {
			b.slot = b.p.q.reserve(true)
		}
	}
	if err != nil {
		b.finishLocked(err)
	}
	return n, err
}

func (b *bodyTap) Close() error {
	err := b.rc.Close()
	b.mu.Lock()
	b.finishLocked(nil)
	b.mu.Unlock()
	return err
}

// errDrained is what a read of a request body gets once its handler
// returned: the exchange is over, whatever the transport still wanted.
var errDrained = errors.New("httpproxy: the request body was read after its exchange ended")

// maxDrain is how much of a request body the target left unread the tap
// still reads from the client, so the request frame holds the whole
// message.
const maxDrain = 1 << 20

// finishRequest runs when the exchange's handler returns: ReverseProxy
// never closes the inbound body, and the target may not have read it all
// (it answered early, or could not be reached). The rest, up to maxDrain,
// is read from the client for the capture only.
func (b *bodyTap) finishRequest() {
	b.readMu.Lock()
	defer b.readMu.Unlock()
	b.drained = true
	b.mu.Lock()
	defer b.mu.Unlock()
	// An origin that failed before it read a byte (unreachable: mcptrail
	// answered 502) left nothing unread: it never had the body.
	neverReached := b.handed == 0 && b.ex.upstreamErr != ""
	// What decide read and the transport did not is unread too.
	unread := int64(len(b.peeked))
	b.peeked = nil
	if !b.done {
		err := b.peekErr
		if err == nil {
			var n int64
			n, err = io.Copy(keeper{b}, io.LimitReader(b.rc, maxDrain))
			if err == nil && n < maxDrain {
				err = io.EOF
			}
			unread += n
		}
		b.finishLocked(err)
	}
	if unread > 0 && !neverReached {
		b.ex.note(NoteBodyUnread, fmt.Sprintf("the target left %d bytes of the request body unread; they are in the capture, not forwarded", unread))
	}
}

// keep adds p to the body's copy for its frame record: in memory up to
// capture.SpoolAbove, then in a spool file, so that a huge body does not
// hold its size in memory; only its length when the proxy does not
// capture. With b.mu held.
func (b *bodyTap) keep(p []byte) {
	b.size += int64(len(p))
	if xs := b.ex.xs; xs != nil && b.dir == capture.C2S {
		xs.req.keep(p)
		if xs.mode == modeExchange {
			return // its record keeps the head only
		}
	}
	switch {
	case b.p.q.off:
	case b.spool != nil:
		_, _ = b.spool.Write(p) // an error is sticky: WriteSpooled reports it
	case len(b.buf)+len(p) <= capture.SpoolAbove:
		b.buf = append(b.buf, p...)
	default:
		sp, err := capture.NewSpool(b.p.q.spoolDir, capture.TypeFrame, nil)
		if err != nil {
			b.buf = append(b.buf, p...) // no file to spool to: as before
			return
		}
		_, _ = sp.Write(b.buf)
		_, _ = sp.Write(p)
		b.spool, b.buf = sp, nil
	}
}

// keeper is an io.Writer that keeps what it is given (bodyTap.keep).
type keeper struct{ b *bodyTap }

func (k keeper) Write(p []byte) (int, error) {
	k.b.keep(p)
	return len(p), nil
}

// reserve makes sure the frame has its seq; the response to a request
// must get a higher one even when the server answered before reading the
// whole body. An undecided exchange is decided first, from its body.
func (b *bodyTap) reserve() {
	b.decide()
	b.mu.Lock()
	if b.slot == nil && b.isMCP() {
		b.slot = b.p.q.reserve(true)
	}
	b.mu.Unlock()
}

// decide reads an undecided request's body from the client until its
// first JSON value completes (or the body ends, or is not JSON, or
// maxDrain bytes were read), so that whether the exchange is MCP does not
// depend on how much of the body the target read before it answered.
// What it reads is kept for the frame and handed to the transport on its
// next reads.
func (b *bodyTap) decide() {
	if !b.undecided() {
		// Decided: never wait for readMu, which a transport's read of a
		// full-duplex body may hold until the client has our answer.
		return
	}
	b.readMu.Lock()
	defer b.readMu.Unlock()
	if b.drained || b.peekErr != nil || !b.undecided() {
		return
	}
	buf := make([]byte, 32<<10)
	for read := 0; read < maxDrain; {
		n, err := b.rc.Read(buf)
		read += n
		b.mu.Lock()
		var complete bool
		if n > 0 {
			b.peeked = append(b.peeked, buf[:n]...)
			b.keep(buf[:n])
			complete = b.scan.feed(buf[:n])
		}
		if err != nil {
			b.peekErr = err
			b.finishLocked(err)
		}
		stop := err != nil || complete || b.scan.off
		b.mu.Unlock()
		if stop {
			return
		}
	}
}

// undecided reports whether the body's exchange still waits for it to
// say whether it is MCP.
func (b *bodyTap) undecided() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ex.xs != nil && b.ex.xs.mode == modeUndecided && !b.done
}

// isMCP reports whether the body belongs to an MCP exchange, deciding an
// undecided request by what it holds of its body (classify.go). With b.mu
// held.
func (b *bodyTap) isMCP() bool {
	xs := b.ex.xs
	if xs == nil {
		return true
	}
	if xs.mode == modeUndecided {
		xs.mode = modeExchange
		if looksJSONRPC(xs.req.buf) {
			xs.mode = modeMCP
		}
	}
	return xs.mode == modeMCP
}

// finishLocked records the frame once. err is the read error that ended
// the body (io.EOF for a clean end) or nil when it was closed unread.
func (b *bodyTap) finishLocked(err error) {
	if b.done {
		return
	}
	b.done = true
	if !b.isMCP() {
		// Its exchange record holds it (xchg.go).
		if b.spool != nil {
			_ = b.spool.Close()
		}
		b.buf, b.spool = nil, nil
		b.noteEnd(err)
		return
	}
	if b.slot == nil {
		b.slot = b.p.q.reserve(true)
	}
	switch {
	case b.spool != nil:
		b.p.q.fillSpooled(b.slot, b.spool, b.ex.sizedFrame(b.dir, b.env, b.spool.Len()))
	case b.p.q.off:
		b.p.q.fill(b.slot, b.ex.sizedFrame(b.dir, b.env, b.size))
	default:
		raw := string(b.buf)
		if b.dir == capture.C2S {
			b.raw = raw
		}
		b.p.q.fill(b.slot, b.ex.rawFrame(b.dir, b.env, raw))
	}
	b.buf, b.spool = nil, nil
	b.noteEnd(err)
}

// noteEnd notes a body that did not end cleanly.
func (b *bodyTap) noteEnd(err error) {
	note := b.ex.note
	if b.dir == capture.S2C {
		note = func(_, text string) { b.ex.streamAborted(text) }
	}
	switch {
	case err == nil:
		note(NoteStreamAborted, bodyName(b.dir)+" body closed before its end")
	case !errors.Is(err, io.EOF):
		note(NoteStreamAborted, fmt.Sprintf("%s body cut short: %v", bodyName(b.dir), err))
	}
}

// sizedFrame is frame for a body whose bytes are not in memory: in a
// spool, or not kept at all.
func (ex *exchange) sizedFrame(dir capture.Dir, env *capture.HTTP, size int64) func(*capture.Record) {
	return func(r *capture.Record) {
		r.Dir, r.Conn, r.HTTP, r.Size = dir, ex.conn, env, int(size)
	}
}

func bodyName(d capture.Dir) string {
	if d == capture.C2S {
		return "request"
	}
	return "response"
}

// sseTap wraps a text/event-stream response body: each event with data
// becomes a frame record whose seq is reserved, and whose record is
// filled, before the chunk that completed the event is handed on to the
// client. A stream that carried no message still gets one frame without a
// payload, so its status is visible.
type sseTap struct {
	rc  io.ReadCloser
	p   *Proxy
	ex  *exchange
	env *capture.HTTP

	mu     sync.Mutex
	parser sseParser
	frames int
	done   bool
	// last is the data of the latest event, "" when it was spooled; it
	// tells a stream the client closed once it had its answer.
	last string
}

func (s *sseTap) Read(p []byte) (int, error) {
	n, err := s.rc.Read(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > 0 && !s.done {
		if s.parser.newSpool == nil && !s.p.q.off {
			s.parser.newSpool, s.parser.emitSpool = s.newSpool, s.spoolEvent
		}
		s.parser.feed(p[:n], s.event)
	}
	if err != nil {
		s.finishLocked(err)
	}
	return n, err
}

// event records one dispatched event's data as a frame.
func (s *sseTap) event(data []byte, _, event string) {
	s.frames++
	sl := s.p.q.reserve(true)
	raw := string(data)
	s.last = raw
	s.p.q.fill(sl, s.ex.rawFrame(capture.S2C, s.eventEnvelope(event), raw))
}

// eventEnvelope is the stream's envelope for an event of type event: the
// same one, or a copy naming a type other than the default "message"
// (capture.HTTP.Event).
func (s *sseTap) eventEnvelope(event string) *capture.HTTP {
	if event == "" || event == mcp.SSEEventMessage {
		return s.env
	}
	env := *s.env
	env.Event = event
	return &env
}

// newSpool returns a spool for a large event's data, or nil (the event
// then stays in memory).
func (s *sseTap) newSpool() *capture.Spool {
	sp, err := capture.NewSpool(s.p.q.spoolDir, capture.TypeFrame, nil)
	if err != nil {
		return nil
	}
	return sp
}

// spoolEvent is event for an event whose data is in sp.
func (s *sseTap) spoolEvent(sp *capture.Spool, _, event string) {
	s.frames++
	s.last = ""
	sl := s.p.q.reserve(true)
	s.p.q.fillSpooled(sl, sp, s.ex.sizedFrame(capture.S2C, s.eventEnvelope(event), sp.Len()))
}

func (s *sseTap) Close() error {
	err := s.rc.Close()
	s.mu.Lock()
	s.finishLocked(nil)
	s.mu.Unlock()
	return err
}

func (s *sseTap) finishLocked(err error) {
	if s.done {
		return
	}
	s.done = true
	aborted := (err == nil || !errors.Is(err, io.EOF)) && !s.closedAfterAnswer(err)
	// A stream the client closed before any event is noted before its
	// empty frame, so a reader knows the request was cancelled
	// (2026-07-28) before it sees the stream end without an answer.
	byClient := aborted && s.ex.clientGone()
	if s.frames == 0 && !byClient {
		s.emptyFrame()
	}
	if aborted {
		text := "event stream closed before its end"
		if err != nil {
			text = fmt.Sprintf("event stream cut short: %v", err)
		}
		if n := s.parser.pending(); n > 0 {
			text += fmt.Sprintf(" (%d bytes of an unfinished event)", n)
		}
		s.ex.streamAborted(text)
	}
	if s.frames == 0 && byClient {
		s.emptyFrame()
	}
	s.parser.discard()
}

// emptyFrame records the stream's status frame when it carried no event.
func (s *sseTap) emptyFrame() {
	sl := s.p.q.reserve(true)
	s.p.q.fill(sl, s.ex.frame(capture.S2C, s.env, nil))
}

// closedAfterAnswer reports whether the stream ended on our side (the
// client went away, or mcptrail stopped: err is nil or a cancellation)
// right after an event that is a JSON-RPC response: the request had its
// answer, so nothing was cut that anyone waited for. A stream the target
// cut, or one whose last event is not an answer, is still noted.
func (s *sseTap) closedAfterAnswer(err error) bool {
	if err != nil && !errors.Is(err, context.Canceled) {
		return false
	}
	if s.last == "" || s.parser.pending() > 0 {
		return false
	}
	k := wire.Decode([]byte(s.last)).Kind
	return k == wire.KindResponse || k == wire.KindError
}
