// Package source feeds the TUI: it follows capture files as they grow and
// hands the screens newer ui.Data (one session: Open, Read) and
// ui.SessionInfo lists (the hub over the state directory: Watch).
//
// It sits between the capture files (internal/capture: the Follower, the
// Reader, the writer's lock) and the screens: every record goes through
// the redactor, then the store (with the full rule set), and what the
// screens see are the store's immutable snapshots.
//
// Concurrency: each Session and Hub runs one goroutine of its own (a Hub
// also one per capture file it is reading) and hands out values on a
// channel that keeps only the newest undelivered one. Their methods are
// safe for concurrent use; everything delivered is immutable.
package source

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Errors returned by Open and Read.
var (
	// ErrNoSession means the capture holds no session with the given id
	// (or id prefix).
	ErrNoSession = errors.New("no such session in the capture")
	// ErrAmbiguous means an id prefix names several sessions.
	ErrAmbiguous = errors.New("the session id prefix names several sessions")
)

// Default intervals (Options).
const (
	// DefaultFirst is how long a Session ingests before it delivers its
	// first Data when the file holds more than that.
	DefaultFirst = 50 * time.Millisecond
	// DefaultInterval is how often a Session delivers a newer Data while
	// it ingests.
	DefaultInterval = 100 * time.Millisecond
	// DefaultPoll is how often Watch lists the directory.
	DefaultPoll = 250 * time.Millisecond
	// staleAfter is how long a capture whose writer's lock cannot be
	// probed may go without growing before it counts as finished.
	staleAfter = 2 * time.Second
)

// Options are the knobs of Open, Read and Watch. A nil *Options means the
// defaults.
type Options struct {
	// Redactor, when non-nil, scrubs every record before the store sees it
	// (the --redact-* flags and .mcptrail.toml, as for export), and every
	// frame Data.Frame reads back. A Session uses it from its own
	// goroutine until Close, and resets it at its session record: give
	// each Session that runs at the same time its own (redact.New). Watch
	// does not use it (the hub shows no frame content).
	Redactor redact.Redactor
	// Rules grades the findings (internal/rules.Default with [rules]).
	Rules *finding.Registry
	// Interval is how often a Session delivers a newer Data while it
	// ingests or follows; zero means DefaultInterval. The first comes
	// after at most DefaultFirst, and one comes each time the follower
	// catches up with the writer.
	Interval time.Duration
	// Poll is how often Watch lists the directory; zero means
	// DefaultPoll.
	Poll time.Duration
}

func (o *Options) interval() time.Duration {
	if o.Interval > 0 {
		return o.Interval
	}
	return DefaultInterval
}

// Session is one session being read or followed.
type Session struct {
	ch     chan ui.Data
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine returned
	src    io.Closer     // the capture file Data.Frame reads, or nil

	mu  sync.Mutex
	err error

	once sync.Once
}

func newSession(cancel context.CancelFunc, src io.Closer) *Session {
	return &Session{ch: make(chan ui.Data, 1), cancel: cancel, done: make(chan struct{}), src: src}
}

// Updates delivers the session's newer Data, newest first (a reader that
// falls behind gets the latest, never a queue); it is closed once the
// session ended and its last Data was delivered, or Close was called.
// The last Data before the close has Live false unless Close ended it.
func (s *Session) Updates() <-chan ui.Data { return s.ch }

// Err reports why Updates closed early (a read error, the file truncated
// or replaced while followed), or nil. A clean end, a writer that died
// without an end record and Close all leave it nil.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close stops following, waits for the session's goroutine to return and
// closes the capture file: frames can no longer be read from a Data it
// delivered. A Session from Read waits for a read of its input in
// progress to return. Close is idempotent.
func (s *Session) Close() error {
	var err error
	s.once.Do(func() {
		s.cancel()
		<-s.done
		if s.src != nil {
			err = s.src.Close()
		}
	})
	return err
}

// send delivers d, replacing an older Data the reader has not taken: the
// session's goroutine is the only sender, so after the drain the send
// never blocks.
func (s *Session) send(d ui.Data) {
	select {
	case <-s.ch:
	default:
	}
	s.ch <- d
}

// stop records why the session stopped and closes Updates.
func (s *Session) stop(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	close(s.ch)
	close(s.done)
}
