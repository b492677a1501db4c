package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Errors returned by a Follower.
var (
	// ErrTruncated means the followed file became shorter than what the
	// Follower had already read.
	ErrTruncated = errors.New("capture file was truncated while followed")
	// ErrReplaced means the followed path was removed or now names a
	// different file.
	ErrReplaced = errors.New("capture file was replaced while followed")
)

// DefaultFollowPoll is how often a Follower looks for new bytes when
// FollowOptions.Poll is zero.
const DefaultFollowPoll = 25 * time.Millisecond

// FollowOptions are the knobs of Follow. A nil *FollowOptions means the
// defaults.
type FollowOptions struct {
	// Poll is how long the Follower waits at the end of the file before
	// it looks again; zero means DefaultFollowPoll.
	Poll time.Duration
	// Session, when set, is the session to follow, as Index listed it
	// (usually the last, the one being written); nil means the file's
	// first session.
	Session *Session
	// Idle, when set, is called on the goroutine calling Follow, Next or
	// NextSession each time the Follower reached the end of the file and
	// is about to wait, with the bytes read so far: a view shows what it
	// has, or cancels the context once the writer is gone (WriterAlive),
	// which makes the waiting call return.
	Idle func(pos int64)

	// waiting, when set, is called with the bytes read so far each time
	// the Follower reaches the end of the file and is about to wait, so a
	// test can act at that point without sleeping.
	waiting func(pos int64)
}

// Follower reads a capture file that another process is still appending
// to, as tail -f does: at the end of the file it waits for more bytes
// instead of returning io.EOF, so a partly written last line is delivered
// whole once its newline arrives, never reported as torn.
//
// A Follower follows one session at a time, starting with the file's
// first or FollowOptions.Session. Next returns io.EOF after it has delivered the session's end
// record, or when a later session record starts (the writer died and
// another appended; Damage may then report the torn tail). NextSession
// moves to the next session, waiting for one to be written. Lines are
// decoded by a Reader, so damage, several sessions per file and huge
// lines behave as they do for NewReader over the finished file.
//
// A Follower is not safe for concurrent use.
type Follower struct {
	ctx  context.Context
	f    *os.File
	r    *Reader
	done bool // the current session's end record was delivered
}

// Follow opens the capture at path and waits, polling, until its session
// header is complete. It returns ctx.Err() if ctx ends first, and an
// error wrapping ErrNotCapture or ErrFutureVersion when the file is not a
// readable capture. Close the Follower when done.
func Follow(ctx context.Context, path string, opts *FollowOptions) (*Follower, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening capture: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening capture: %w", err)
	}
	src := &followSource{ctx: ctx, f: f, path: path, fi: fi, poll: DefaultFollowPoll}
	var s *Session
	if opts != nil {
		if opts.Poll > 0 {
			src.poll = opts.Poll
		}
		src.waiting, src.idle, s = opts.waiting, opts.Idle, opts.Session
	}
	r, err := openFollow(src, s)
	if err != nil {
		f.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("following capture %s: %w", path, err)
	}
	return &Follower{ctx: ctx, f: f, r: r}, nil
}

// openFollow starts a Reader over src at session s, or at the start.
func openFollow(src *followSource, s *Session) (*Reader, error) {
	if s == nil {
		return NewReader(src)
	}
	if _, err := src.f.Seek(s.Offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("seeking to session %s: %w", s.Header.SessionID, err)
	}
	src.pos = s.Offset
	r, err := NewReader(src)
	if err != nil {
		return nil, err
	}
	r.startsAt(s)
	return r, nil
}

// Header returns the current session's record.
func (fl *Follower) Header() *Record { return fl.r.Header() }

// Damage returns what the Follower has skipped so far in the current
// session.
func (fl *Follower) Damage() Damage { return fl.r.Damage() }

// Next decodes the next record into rec, waiting for it to be written. It
// returns io.EOF after the session's end record (which it delivers
// first) or at the next session record; ctx.Err() when ctx ends; and an
// error wrapping ErrTruncated or ErrReplaced when the file is cut or
// replaced. Errors other than io.EOF are sticky.
func (fl *Follower) Next(rec *Record) error {
	if fl.done {
		return io.EOF
	}
	err := fl.r.Next(rec)
	switch {
	case err == nil:
		fl.done = rec.Type == TypeEnd
		return nil
	case errors.Is(err, io.EOF):
		return io.EOF
	}
	return fl.unwrapCtx(err)
}

// unwrapCtx returns ctx.Err() itself for an error the Reader wrapped
// around it, so callers can compare it as they would ctx.Err().
func (fl *Follower) unwrapCtx(err error) error {
	if ctxErr := fl.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return ctxErr
	}
	return err
}

// NextSession moves to the next session in the file, waiting for its
// session record to be written; Header and Damage then describe it. It
// returns the errors Next returns and those of Reader.NextSession.
func (fl *Follower) NextSession() error {
	if err := fl.r.NextSession(); err != nil {
		return fl.unwrapCtx(err)
	}
	fl.done = false
	return nil
}

// Close closes the file.
func (fl *Follower) Close() error { return fl.f.Close() }

// followSource is the io.Reader under a Follower's Reader: at the end of
// the file it polls instead of returning io.EOF, and checks on each poll
// that the file was neither truncated nor replaced.
type followSource struct {
	ctx  context.Context
	f    *os.File
	path string
	fi   os.FileInfo // of the opened file
	poll time.Duration
	pos  int64 // bytes read so far
	// waiting and idle are FollowOptions.waiting and Idle.
	waiting func(pos int64)
	idle    func(pos int64)
}

func (s *followSource) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var timer *time.Timer
	for {
		n, err := s.f.Read(p)
		s.pos += int64(n)
		if n > 0 {
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if err := s.check(); err != nil {
			return 0, err
		}
		if s.waiting != nil {
			s.waiting(s.pos)
		}
		if s.idle != nil {
			s.idle(s.pos)
		}
		if timer == nil {
			timer = time.NewTimer(s.poll)
			defer timer.Stop()
		} else {
			timer.Reset(s.poll)
		}
		select {
		case <-s.ctx.Done():
			return 0, s.ctx.Err()
		case <-timer.C:
		}
	}
}

// check returns an error if the followed file is shorter than what was
// read, or if its path no longer names it.
func (s *followSource) check() error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	fi, err := s.f.Stat()
	if err != nil {
		return fmt.Errorf("checking followed capture: %w", err)
	}
	if fi.Size() < s.pos {
		return fmt.Errorf("%w: %s is %d bytes, %d were read", ErrTruncated, s.path, fi.Size(), s.pos)
	}
	now, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrReplaced, s.path, err)
	}
	if !os.SameFile(s.fi, now) {
		return fmt.Errorf("%w: %s names another file", ErrReplaced, s.path)
	}
	return nil
}
