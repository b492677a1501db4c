package feed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// ErrDiverged means a consumer catching up found the capture file does
// not hold, where it should, the last record it was handed live.
var ErrDiverged = errors.New("capture file does not match the records handed out live")

// recordOverhead is what a queued record costs beyond its payload bytes.
const recordOverhead = 160

// Sub is one consumer's view of a Feed: every record published, in order,
// from the session record to the end record.
type Sub struct {
	feed       *Feed
	path       string
	maxRecords int
	maxBytes   int64
	ready      chan struct{} // signalled when records are queued or the feed closes
	published  atomic.Int64  // records offered, whatever became of them

	mu     sync.Mutex
	q      []capture.Record
	bytes  int64
	behind bool // the queue overflowed: the rest comes from the file
	closed bool
	lost   int64
	sid    string // the session's id, to find it in the file

	// The reader's side: the batch being handed out, how many records it
	// was handed live, the last of them, and the Follower once behind.
	out      []capture.Record
	pos      int
	taken    int64
	lastType capture.Type
	lastSeq  uint64
	fl       *capture.Follower
	done     bool
}

// size is what rec costs in the queue's byte bound.
func size(rec *capture.Record) int64 {
	return int64(len(rec.Msg)+len(rec.Raw)+len(rec.Text)+len(rec.B64)) + recordOverhead
}

// offer queues rec (nil with skip), or switches the Sub to the file when
// it does not fit, or counts it lost without a file.
func (s *Sub) offer(rec *capture.Record, skip bool) {
	s.published.Add(1)
	s.mu.Lock()
	if rec != nil && rec.Type == capture.TypeSession && s.sid == "" {
		s.sid = rec.SessionID
	}
	var n int64
	if rec != nil {
		n = size(rec)
	}
	switch {
	case s.closed || s.behind:
		s.mu.Unlock()
		return
	case skip || len(s.q) >= s.maxRecords || s.bytes+n > s.maxBytes:
		if s.path == "" {
			s.lost++
			s.mu.Unlock()
			return
		}
		s.behind = true
		s.feed.live.Add(-1)
	default:
		s.q = append(s.q, *rec)
		s.bytes += n
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func (s *Sub) close() {
	s.mu.Lock()
	if !s.closed && !s.behind {
		s.feed.live.Add(-1)
	}
	s.closed = true
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Lost returns how many records the consumer will never see: only without
// a capture file, when its queue was full.
func (s *Sub) Lost() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// Published returns how many records the feed published to the consumer
// so far: those it read, those still to read (queued or in the file) and
// those lost.
func (s *Sub) Published() int64 { return s.published.Load() }

// Behind reports whether the consumer fell behind and reads the rest of
// the session from the capture file.
func (s *Sub) Behind() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.behind
}

// Next stores the next record in rec, waiting for it. The first record is
// the session record. It returns io.EOF after the last record (the end
// record, when the capture has one), ctx.Err() when ctx ends first, and,
// while catching up from the file, the Follower's errors. The ctx of the
// call that starts catching up also bounds the Follower.
func (s *Sub) Next(ctx context.Context, rec *capture.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		if s.pos < len(s.out) {
			*rec = s.out[s.pos]
			s.out[s.pos] = capture.Record{}
			s.pos++
			s.taken++
			s.lastType, s.lastSeq = rec.Type, rec.Seq
			return nil
		}
		if s.done {
			return io.EOF
		}
		if s.fl != nil {
			return s.follow(rec)
		}
		s.mu.Lock()
		if len(s.q) > 0 {
			s.out, s.q, s.pos, s.bytes = s.q, s.out[:0], 0, 0
			s.mu.Unlock()
			continue
		}
		behind, closed := s.behind, s.closed
		s.mu.Unlock()
		switch {
		case behind:
			if err := s.catchUp(ctx, rec); err != nil || rec.Type != "" {
				return err
			}
			continue
		case closed:
			s.done = true
			return io.EOF
		}
		select {
		case <-s.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// follow reads the next record from the file.
func (s *Sub) follow(rec *capture.Record) error {
	err := s.fl.Next(rec)
	if err != nil {
		s.done = true
		_ = s.fl.Close()
		s.fl = nil
	}
	return err
}

// catchUp opens the capture file at this session and skips the records
// already handed out. When the session record itself was missed it is
// stored in rec; otherwise rec is left zero.
func (s *Sub) catchUp(ctx context.Context, rec *capture.Record) error {
	*rec = capture.Record{}
	s.mu.Lock()
	sid := s.sid
	s.mu.Unlock()
	sess, err := findSession(s.path, sid)
	if err != nil {
		s.done = true
		return err
	}
	fl, err := capture.Follow(ctx, s.path, &capture.FollowOptions{Session: sess})
	if err != nil {
		s.done = true
		return err
	}
	s.fl = fl
	if s.taken == 0 {
		*rec = *fl.Header()
		s.taken++
		return nil
	}
	for i := int64(1); i < s.taken; i++ {
		if err := s.follow(rec); err != nil {
			return fmt.Errorf("catching up from the capture: %w", err)
		}
	}
	if s.taken > 1 && (rec.Type != s.lastType || rec.Seq != s.lastSeq) {
		s.done = true
		_ = fl.Close()
		s.fl = nil
		return fmt.Errorf("catching up after record %d (%s %d): %w", s.taken, s.lastType, s.lastSeq, ErrDiverged)
	}
	*rec = capture.Record{}
	return nil
}

// findSession locates the session sid in the capture at path (the last
// with that id; the last of all when sid is empty).
func findSession(path, sid string) (*capture.Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("catching up from the capture: %w", err)
	}
	defer f.Close()
	ss, err := capture.Index(f)
	if err != nil {
		return nil, fmt.Errorf("catching up from the capture: %w", err)
	}
	for i := len(ss) - 1; i >= 0; i-- {
		if sid == "" || ss[i].Header.SessionID == sid {
			return &ss[i], nil
		}
	}
	return nil, fmt.Errorf("catching up from the capture: session %q: %w", sid, ErrDiverged)
}
