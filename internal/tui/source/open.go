package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Open follows session id of the capture at path: id "" is the file's
// last session (the one a writer may still be appending to); otherwise
// the last session whose id is id, or else the one whose id starts with
// id (ErrAmbiguous when several do, ErrNoSession when none does).
//
// Updates delivers a first Data at once (within DefaultFirst of a large
// file), a newer one every Options.Interval while it ingests and each
// time it catches up with the writer, and a last one, Live false, when
// the session's end record arrives, a later session starts, or the writer
// is gone without an end record (its lock released, see
// capture.WriterAlive); Updates is then closed. Data.Frame reads frames
// back from the file until Close.
func Open(ctx context.Context, path, id string, opts *Options) (*Session, error) {
	if opts == nil {
		opts = &Options{}
	}
	sess, err := locate(path, id)
	if err != nil {
		return nil, err
	}
	src, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening capture: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	fctx, gone := context.WithCancel(ctx)
	f := &follow{
		in:   newIngester(opts, src, path),
		live: newLiveness(path),
		gone: gone,
	}
	fl, err := capture.Follow(fctx, path, &capture.FollowOptions{Session: sess, Idle: f.idle})
	if err != nil {
		gone()
		cancel()
		src.Close()
		if f.dead {
			err = fmt.Errorf("following capture %s: the writer is gone and the session record is incomplete: %w", path, capture.ErrNotCapture)
		}
		return nil, err
	}
	s := newSession(cancel, src)
	f.s, f.fl = s, fl
	go f.run()
	return s, nil
}

// locate finds session id in the capture at path (see Open).
func locate(path, id string) (*capture.Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening capture: %w", err)
	}
	defer f.Close()
	ss, err := capture.Index(f)
	if err != nil {
		if id == "" && headerPending(f) {
			return nil, nil // a writer has just created it: Follow waits for the header
		}
		return nil, fmt.Errorf("reading capture %s: %w", path, err)
	}
	return pick(ss, id, path)
}

// headerPending reports whether f holds no complete line yet: a capture
// whose writer has created it and not yet written its session record.
func headerPending(f *os.File) bool {
	buf := make([]byte, 64<<10)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	return !strings.Contains(string(buf[:n]), "\n") && (n < len(buf))
}

// pick returns the last session whose id is id, else the last whose id
// starts with id, which must name one session.
func pick(ss []capture.Session, id, path string) (*capture.Session, error) {
	if id == "" {
		return &ss[len(ss)-1], nil
	}
	var prefix *capture.Session
	for i := len(ss) - 1; i >= 0; i-- {
		sid := ss[i].Header.SessionID
		switch {
		case sid == id:
			return &ss[i], nil
		case !strings.HasPrefix(sid, id):
		case prefix == nil:
			prefix = &ss[i]
		case prefix.Header.SessionID != sid:
			return nil, fmt.Errorf("opening session %q of %s: %w (%s, %s)", id, path, ErrAmbiguous, prefix.Header.SessionID, sid)
		}
	}
	if prefix == nil {
		return nil, fmt.Errorf("opening session %q of %s: %w", id, path, ErrNoSession)
	}
	return prefix, nil
}

// follow is an Open session's goroutine state.
type follow struct {
	s    *Session
	fl   *capture.Follower
	in   *ingester
	live *liveness
	gone context.CancelFunc // stops the follower once the writer is gone
	dead bool               // the writer was found gone
}

// idle is the Follower's Idle hook, run on the session's goroutine while
// the store is at rest: it delivers what is new and stops following once
// the writer is gone.
func (f *follow) idle(int64) {
	now := time.Now()
	alive := f.live.check(now)
	if !f.in.caughtUp {
		// The first read is done: what follows comes from the writer.
		f.in.caughtUp, f.in.dirty = true, true
	}
	if f.s != nil && alive && f.in.idleDue(now) {
		f.s.send(f.in.data(true, f.fl.Damage()))
	}
	if !alive {
		f.dead = true
		f.gone()
	}
}

// run ingests the session until it ends, then delivers the last Data.
func (f *follow) run() {
	f.in.start(f.fl.Header(), time.Now())
	err := f.ingest()
	defer f.fl.Close()
	switch {
	case errors.Is(err, io.EOF), f.dead && errors.Is(err, context.Canceled):
		err = nil
	case errors.Is(err, context.Canceled):
		// Close: no last Data.
		f.s.stop(nil)
		return
	}
	f.s.send(f.in.final(f.fl.Damage()))
	f.s.stop(err)
}

// ingest reads records until the Follower stops, delivering a Data when
// one is due.
func (f *follow) ingest() error {
	var rec capture.Record
	for {
		if err := f.fl.Next(&rec); err != nil {
			return err
		}
		f.in.add(&rec)
		if f.in.due() {
			f.s.send(f.in.data(f.live.alive && rec.Type != capture.TypeEnd, f.fl.Damage()))
		}
	}
}
