package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Hub file readers' timing.
const (
	// hubFollowPoll is how often a hub reader of a live file looks for
	// new bytes.
	hubFollowPoll = 100 * time.Millisecond
	// hubEvery is how often a hub reader sums a session up while it
	// reads a long backlog.
	hubEvery = 250 * time.Millisecond
)

// fileReader sums up every session of one capture file for the hub, in
// a goroutine of its own: it reads the file once, then follows it while
// its writer is alive, and ends.
type fileReader struct {
	path   string
	rules  *finding.Registry
	notify func() // tells the hub a row changed
	done   chan struct{}

	mu       sync.Mutex
	rows     []ui.SessionInfo // one per session, in file order
	ver      uint64           // bumped with every change of rows
	seen     int              // rows set by this reader (the others are an earlier reader's)
	finished bool
	size     int64 // the file's size and time when it finished
	mtime    time.Time

	// The goroutine's own state.
	fl      *capture.Follower
	cur     *tally // the session being read, or nil
	k       int    // its index in rows
	live    *liveness
	gone    context.CancelFunc
	dead    bool
	release func()    // gives the hub's read slot back, once
	next    time.Time // when the next summary of the current session is due
	pos     int64     // the bytes read when the Follower was last idle
	// caughtUp is set at the first idle: the backlog is read, and rows
	// summed up from then on are no longer Loading.
	caughtUp bool
}

func newFileReader(path string, reg *finding.Registry, notify func(), prev []ui.SessionInfo) *fileReader {
	return &fileReader{path: path, rules: reg, notify: notify, done: make(chan struct{}), rows: prev}
}

// set replaces row k (appending it when k is past the end).
func (r *fileReader) set(k int, info ui.SessionInfo) {
	r.mu.Lock()
	if k < len(r.rows) {
		r.rows[k] = info
	} else {
		r.rows = append(r.rows, info)
	}
	r.ver++
	r.seen = max(r.seen, k+1)
	r.mu.Unlock()
	r.notify()
}

// snapshot returns a copy of the rows and their version.
func (r *fileReader) snapshot() ([]ui.SessionInfo, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ui.SessionInfo(nil), r.rows...), r.ver
}

// stale reports whether the reader finished and the file changed since.
func (r *fileReader) stale(fi os.FileInfo) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finished && (fi.Size() != r.size || !fi.ModTime().Equal(r.mtime))
}

// run reads the file; slot is the hub's semaphore of backlog readers.
func (r *fileReader) run(ctx context.Context, slot chan struct{}) {
	defer close(r.done)
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
		return
	}
	var once sync.Once
	r.release = func() { once.Do(func() { <-slot }) }
	defer r.release()
	// The size and time are taken before the read: a change during it
	// makes the hub read the file again rather than miss it.
	fi, statErr := os.Stat(r.path)
	fctx, gone := context.WithCancel(ctx)
	defer gone()
	r.live, r.gone = newLiveness(r.path), gone
	err := r.follow(fctx)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		r.fail(err, fi)
	} else if now, err := os.Stat(r.path); err == nil && now.Size() == r.pos {
		// Everything was read: the file as it is now needs no second read.
		fi, statErr = now, nil
	}
	// A finished reader stays in the hub's map: let go of the Follower's
	// buffer and the store.
	r.fl, r.cur, r.live = nil, nil, nil
	r.mu.Lock()
	r.finished = true
	r.rows = r.rows[:min(len(r.rows), r.seen)]
	if statErr == nil {
		r.size, r.mtime = fi.Size(), fi.ModTime()
	}
	r.mu.Unlock()
}

// follow reads every session of the file until the writer is gone.
func (r *fileReader) follow(ctx context.Context) error {
	fl, err := capture.Follow(ctx, r.path, &capture.FollowOptions{Poll: hubFollowPoll, Idle: r.idle})
	if err != nil {
		if r.dead && errors.Is(err, context.Canceled) {
			return fmt.Errorf("reading capture %s: the session record is incomplete: %w", r.path, capture.ErrNotCapture)
		}
		return err
	}
	defer fl.Close()
	r.fl = fl
	for r.k = 0; ; r.k++ {
		r.cur = newTally(r.path, fl.Header(), r.rules)
		err := r.session()
		ended := errors.Is(err, io.EOF) || r.dead && errors.Is(err, context.Canceled)
		if !ended {
			return err
		}
		r.set(r.k, r.cur.info(false, true, fl.Damage()))
		r.cur = nil
		if err := fl.NextSession(); err != nil {
			if r.dead && errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// session reads the current session's records until the Follower stops.
func (r *fileReader) session() error {
	var rec capture.Record
	for n := 1; ; n++ {
		if err := r.fl.Next(&rec); err != nil {
			return err
		}
		r.cur.add(&rec)
		if n%256 == 0 && time.Now().After(r.next) {
			r.next = time.Now().Add(hubEvery)
			info := r.cur.info(r.live.alive && rec.Type != capture.TypeEnd, false, r.fl.Damage())
			info.Loading = true // the loop reads the backlog; idle sums up the rest
			r.set(r.k, info)
		}
	}
}

// idle is the Follower's Idle hook: the backlog is read, so the slot goes
// back; what is new is summed up; a gone writer stops the reader.
func (r *fileReader) idle(pos int64) {
	r.release()
	r.pos = pos
	if !r.caughtUp && r.cur != nil {
		r.caughtUp, r.cur.dirty, r.next = true, true, time.Time{}
	}
	alive := r.live.check(time.Now())
	if now := time.Now(); r.cur != nil && r.cur.dirty && alive && !now.Before(r.next) {
		r.next = now.Add(hubEvery)
		r.set(r.k, r.cur.info(true, false, r.fl.Damage()))
	}
	if !alive {
		r.dead = true
		r.gone()
	}
}

// fail records why the file could not be read: as its only row when it
// gave none, else on its last.
func (r *fileReader) fail(err error, fi os.FileInfo) {
	if r.cur != nil {
		info := r.cur.info(false, true, r.fl.Damage())
		info.Err = err.Error()
		r.set(r.k, info)
		return
	}
	info := ui.SessionInfo{Path: r.path, Err: err.Error(), Activity: make([]int, ui.ActivityBuckets)}
	if fi != nil {
		info.Start, info.LastActivity = fi.ModTime(), fi.ModTime()
	}
	r.set(r.k, info)
}
