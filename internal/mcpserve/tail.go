package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// The tail tool's bounds: how long it waits (by default and at most), and
// how many records or calls it waits for at most.
const (
	tailDefaultWait = 30 * time.Second
	tailMaxWait     = 60 * time.Second
	tailMaxCount    = 100
	// tailProbe is how often a tail waiting at the end of a capture asks
	// whether its writer is still there, as the TUI's follower does.
	tailProbe = 200 * time.Millisecond
)

// tailArgs are the tail tool's arguments.
type tailArgs struct {
	Session  string   `json:"session"`
	What     string   `json:"what"`
	Count    *int     `json:"count"`
	AfterSeq *uint64  `json:"after_seq"`
	Timeout  *float64 `json:"timeout_s"`
	Cursor   string   `json:"cursor"`
}

// tailHead is the tail tool's answer but for its list: what it waited
// for, after which seq, how it stopped, and the seq to pass next time.
type tailHead struct {
	SessionID string `json:"session_id"`
	What      string `json:"what"`
	AfterSeq  uint64 `json:"after_seq"`
	// LastSeq is the last frame's seq read: pass it as after_seq to wait
	// for what comes next.
	LastSeq uint64 `json:"last_seq"`
	// Stopped says why the wait ended: "count" (the count arrived),
	// "timeout", "ended" (the session's end record, or a later session),
	// "writer-gone" (no proxy writes the capture any more).
	Stopped  string  `json:"stopped"`
	WaitedMS float64 `json:"waited_ms"`
	Live     bool    `json:"live"`
}

// tail waits, at most timeout_s (≤ 60 s), for the next count frames
// ("records") or requests ("calls") of a session after after_seq (by
// default, what is written when it is called), following the capture as
// the TUI does (capture.Follow, the writer's lock probed while it waits),
// then answers them: the frames as the call tool shows them, the calls as
// the calls tool lists them. It waits without holding the server's lock.
func (s *Server) tail(ctx context.Context, raw []byte) (*page, error) {
	var a tailArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	count, wait, err := a.limits()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	path, want, err := s.resolve(a.Session)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	idx, err := session.IndexFile(path)
	if err != nil {
		return nil, err
	}
	sess, err := capture.PickSession(idx, want)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	after, stopped, err := follow(ctx, path, sess, a.AfterSeq, count, a.What == "records", wait)
	if err != nil {
		return nil, err
	}
	head := tailHead{SessionID: sess.Header.SessionID, What: a.What, AfterSeq: after, LastSeq: after, Stopped: stopped,
		WaitedMS: float64(time.Since(began).Microseconds()) / 1000}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tailPage(&a, &head)
}

// limits checks a's what (calls by default), count and timeout_s, and
// returns the count and the wait they ask for.
func (a *tailArgs) limits() (count int, wait time.Duration, err error) {
	switch a.What {
	case "":
		a.What = "calls"
	case "calls", "records":
	default:
		return 0, 0, fmt.Errorf("what %q: want calls (the next requests) or records (the next frames)", cut(a.What, 32))
	}
	count = 1
	if a.Count != nil {
		if count = *a.Count; count < 1 || count > tailMaxCount {
			return 0, 0, fmt.Errorf("count %d: want 1 to %d", count, tailMaxCount)
		}
	}
	wait = tailDefaultWait
	if a.Timeout != nil {
		if *a.Timeout <= 0 || *a.Timeout > tailMaxWait.Seconds() {
			return 0, 0, fmt.Errorf("timeout_s %v: want more than 0 and at most %v", *a.Timeout, tailMaxWait.Seconds())
		}
		wait = time.Duration(*a.Timeout * float64(time.Second))
	}
	return count, wait, nil
}

// tailPage answers a tail that followed its session to head.AfterSeq: the
// frames or calls after it, with s's lock held.
func (s *Server) tailPage(a *tailArgs, head *tailHead) (*page, error) {
	after := head.AfterSeq
	var last uint64
	frames, snap, err := s.frames(head.SessionID, func(f *store.Frame) bool {
		last = max(last, f.Seq)
		return a.What == "records" && f.Seq > after
	})
	if err != nil {
		return nil, err
	}
	head.SessionID, head.Live, head.LastSeq = snap.Session.ID, s.live, max(after, last)
	l := &list{name: "frames", n: len(frames),
		item: func(i, limit int) ([]byte, error) { return marshal(&frames[i], limit) },
		line: func(i, limit int) string { return frames[i].text(limit) },
	}
	if a.What == "calls" {
		var rows []callLine
		for i := range snap.Calls.Len() {
			if c := snap.Calls.At(i); c.RequestSeq > after {
				rows = append(rows, lineOf(&c, nil))
			}
		}
		l = &list{name: "calls", n: len(rows),
			item: func(i, limit int) ([]byte, error) { return marshal(&rows[i], limit) },
			line: func(i, limit int) string { return rows[i].line(limit) },
		}
	}
	start, err := cursor(a.Cursor, l.n)
	if err != nil {
		return nil, err
	}
	return &page{
		head: func(limit int) ([]byte, error) { return marshal(head, limit) },
		text: func(limit int) string {
			return fmt.Sprintf("tail of session %s after #%d: %s (%s after %s); next: after_seq %d\n", show(head.SessionID, limit), head.AfterSeq,
				plural(l.n, map[string]string{"calls": "call", "records": "frame"}[a.What]), head.Stopped,
				time.Duration(head.WaitedMS*float64(time.Millisecond)).Round(time.Millisecond), head.LastSeq)
		},
		list:  l,
		start: start,
	}, nil
}

// follow follows session sess of the capture at path until count frames
// (records) or requests (else) with a seq after after have been written,
// wait has passed, the session ended or its writer went away; it returns
// the seq it counted from (after, or when nil the last seq written when it
// began) and why it stopped. Only ctx's own end is an error.
func follow(ctx context.Context, path string, sess *capture.Session, after *uint64, count int, records bool, wait time.Duration) (uint64, string, error) {
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var from, seen uint64
	known := after != nil
	if known {
		from = *after
	}
	gone, probed := false, time.Time{}
	base := func() uint64 {
		if !known {
			return seen
		}
		return from
	}
	idle := func(int64) {
		if !known {
			from, known = seen, true
		}
		if now := time.Now(); now.Sub(probed) >= tailProbe {
			probed = now
			if alive, ok := capture.WriterAlive(path); ok && !alive {
				gone = true
				cancel()
			}
		}
	}
	fl, err := capture.Follow(wctx, path, &capture.FollowOptions{Session: sess, Idle: idle})
	if err != nil {
		return stop(ctx, wctx, base(), gone, err)
	}
	defer fl.Close()
	got := 0
	var rec capture.Record
	for {
		err := fl.Next(&rec)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return base(), "ended", nil
			}
			return stop(ctx, wctx, base(), gone, err)
		}
		if rec.Type != capture.TypeFrame {
			continue
		}
		seen = max(seen, rec.Seq)
		if !known || rec.Seq <= from {
			continue
		}
		if records || wire.Decode(rec.Msg).Kind == wire.KindRequest {
			if got++; got >= count {
				return from, "count", nil
			}
		}
	}
}

// stop says why a follow that failed with err stopped.
func stop(ctx, wctx context.Context, from uint64, gone bool, err error) (uint64, string, error) {
	switch {
	case ctx.Err() != nil:
		return 0, "", ctx.Err()
	case gone:
		return from, "writer-gone", nil
	case wctx.Err() != nil:
		return from, "timeout", nil
	}
	return 0, "", fmt.Errorf("following the capture: %w", err)
}
