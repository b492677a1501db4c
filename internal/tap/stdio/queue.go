package stdio

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// The capture queue's bounds. Past either, the relays wait for the capture
// goroutine (backpressure); nothing is ever dropped.
const (
	maxQueuedBytes = 32 << 20
	maxQueuedItems = 16 << 10
)

// While traffic flows, the capture goroutine polls the queue every
// pollInterval instead of being woken for each chunk, which keeps thread
// wake-ups off the relay path; after pollRounds empty polls it sleeps until
// a relay wakes it. During a burst (more than deferAbove queued while a
// relay queued a chunk within quietAfter), chunks wait for up to maxLag, or
// until they fill half the queue, so that forwarding gets the CPU first and
// the burst is recorded right after it.
const (
	pollInterval = time.Millisecond
	pollRounds   = 100
	deferAbove   = 256 << 10
	quietAfter   = time.Millisecond
	maxLag       = 50 * time.Millisecond
)

// stream names one of the three byte streams the tap reads.
type stream uint8

const (
	streamC2S    stream = iota // client → server frames
	streamS2C                  // server → client frames
	streamStderr               // server stderr lines
	numStreams
)

func (s stream) dir() capture.Dir {
	switch s {
	case streamC2S:
		return capture.C2S
	case streamS2C:
		return capture.S2C
	}
	return ""
}

// itemKind says what a queued item carries.
type itemKind uint8

const (
	itemData itemKind = iota // bytes read from a stream
	itemEOF                  // a stream ended; a partial line becomes a NoEOL record
	itemNote                 // a record to write as is
	itemStop                 // the last item: write the end record and return
)

// item is one unit of work for the capture goroutine. For data and EOF
// items base is the seq before the first line the item completes.
type item struct {
	kind   itemKind
	stream stream
	at     time.Time
	base   uint64
	data   []byte
	rec    *capture.Record
}

// tap is the state one Run shares between its goroutines. One mutex
// guards the seq counter and the capture queue together, so the queue is
// in seq order.
type tap struct {
	opts   *Options
	now    func() time.Time
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	mu     sync.Mutex
	seq    uint64 // the last seq handed out
	bytes  int64  // frame bytes relayed
	tail   [numStreams]bool
	ended  [numStreams]bool
	closed bool

	// The capture queue: pending items in seq order, the bytes they and
	// the batch being recorded hold, relays waiting for room, and whether
	// the capture goroutine sleeps until woken (else it polls).
	capture  bool
	pending  []item
	queued   int
	waiters  int
	room     sync.Cond
	sleeping bool
	wake     chan struct{}
	// lastTake is when a relay last queued a chunk, pendingSince when the
	// oldest pending item was queued (monotonic clock readings).
	lastTake     time.Time
	pendingSince time.Time

	rec     *recorder
	recDone chan error
	// chunks recycles the copies of full reads (bufSize bytes), which
	// bursts queue by the thousand; smaller copies are allocated exactly.
	chunks sync.Pool
}

// pooledAbove is the smallest copy taken from (and returned to) chunks.
const pooledAbove = bufSize / 8

// chunk returns a buffer of n bytes for a copy of a chunk.
func (t *tap) chunk(n int) []byte {
	if n < pooledAbove {
		return make([]byte, n)
	}
	if p, ok := t.chunks.Get().(*[]byte); ok {
		return (*p)[:n]
	}
	return make([]byte, n, bufSize)
}

// release returns a chunk copy the capture goroutine is done with.
func (t *tap) release(b []byte) {
	if cap(b) == bufSize {
		t.chunks.Put(&b)
	}
}

func newTap(opts *Options) *tap {
	t := &tap{opts: opts, now: opts.Now, stdin: opts.Stdin, stdout: opts.Stdout, stderr: opts.Stderr}
	t.room.L = &t.mu
	if t.now == nil {
		t.now = time.Now
	}
	if t.stdin == nil {
		t.stdin = strings.NewReader("")
	}
	if t.stdout == nil {
		t.stdout = io.Discard
	}
	if t.stderr == nil {
		t.stderr = io.Discard
	}
	if opts.Capture != nil || opts.Feed != nil {
		t.capture = true
		t.wake = make(chan struct{}, 1)
		w := opts.Capture
		if w == nil {
			w = io.Discard
		}
		t.rec = newRecorder(w)
		t.rec.feed = opts.Feed
		t.rec.redact = opts.Redact
		t.rec.spoolDir = opts.SpoolDir
		t.recDone = make(chan error, 1)
	}
	return t
}

// startCapture writes the session record and starts the capture
// goroutine. A header that cannot be written does not stop the session:
// the recorder counts what it cannot record and Run reports it.
func (t *tap) startCapture() {
	if t.rec == nil {
		return
	}
	h := t.opts.Header
	h.Type = capture.TypeSession
	h.Format = capture.FormatVersion
	h.Transport = "stdio"
	h.Time = t.now()
	// Arguments are bytes; the record is JSON text.
	h.Command = make([]string, len(t.opts.Command))
	for i, a := range t.opts.Command {
		h.Command[i] = strings.ToValidUTF8(a, "\uFFFD")
	}
	h.SessionID = strings.ToValidUTF8(h.SessionID, "\uFFFD")
	h.Label = strings.ToValidUTF8(h.Label, "\uFFFD")
	h.ToolVersion = strings.ToValidUTF8(h.ToolVersion, "\uFFFD")
	t.rec.header(&h)
	go func() { t.recDone <- t.rec.run(t) }()
}

// take accounts for data read from s and queues a copy for capture. It
// reports whether to relay the data (false once the tap is closed) and
// whether the caller must wake the capture goroutine after forwarding.
// The seq numbers of the chunk's lines are taken before the caller
// forwards the chunk, which is what keeps responses after requests.
func (t *tap) take(s stream, data []byte) (relay, wake bool) {
	var lines uint64
	if s != streamStderr {
		lines = uint64(bytes.Count(data, []byte{'\n'}))
	}
	var cp []byte
	if t.capture {
		cp = t.chunk(len(data))
		copy(cp, data)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.capture {
		t.waitRoom(len(cp))
	}
	if t.closed {
		return false, false
	}
	base := t.seq
	t.seq += lines
	if s != streamStderr {
		t.bytes += int64(len(data))
	}
	t.tail[s] = data[len(data)-1] != '\n'
	if !t.capture {
		return true, false
	}
	t.lastTake = time.Now()
	at := t.lastTake
	if t.opts.Now != nil {
		at = t.now()
	}
	return true, t.enqueue(item{kind: itemData, stream: s, at: at, base: base, data: cp})
}

// waitRoom blocks, with t.mu held, until the queue has room for n bytes.
func (t *tap) waitRoom(n int) {
	for !t.closed && t.queued > 0 && (t.queued+n > maxQueuedBytes || len(t.pending) >= maxQueuedItems) {
		// The relay that owes the capture goroutine a wake-up may be stuck
		// writing to a slow peer: wake it from here too.
		t.signal()
		t.waiters++
		t.room.Wait()
		t.waiters--
	}
}

// enqueue appends it, with t.mu held, and reports whether the capture
// goroutine is asleep and must be woken (by signal).
func (t *tap) enqueue(it item) bool {
	if len(t.pending) == 0 {
		t.pendingSince = time.Now()
	}
	t.pending = append(t.pending, it)
	t.queued += len(it.data)
	if t.sleeping {
		t.sleeping = false
		return true
	}
	return false
}

// signal wakes the capture goroutine.
func (t *tap) signal() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// next hands the capture goroutine the pending items when they are ready,
// after releasing the room its previous batch held. While there are none
// it flushes, then polls or sleeps.
func (t *tap) next(batch []item, done int, poll *time.Timer) []item {
	empty := 0
	t.mu.Lock()
	for {
		t.queued -= done
		done = 0
		if t.waiters > 0 {
			t.room.Broadcast()
		}
		if t.ready(time.Now()) {
			batch, t.pending = t.pending, batch[:0]
			t.mu.Unlock()
			return batch
		}
		deferred := len(t.pending) > 0
		t.sleeping = !deferred && empty >= pollRounds
		sleep := t.sleeping
		t.mu.Unlock()
		if empty == 0 {
			t.rec.flush()
		}
		if sleep {
			<-t.wake
		} else {
			poll.Reset(pollInterval)
			select {
			case <-t.wake:
			case <-poll.C:
			}
		}
		if !deferred {
			empty++
		}
		t.mu.Lock()
	}
}

// ready reports, with t.mu held, whether the pending items should be
// recorded now (see maxLag).
func (t *tap) ready(now time.Time) bool {
	switch {
	case len(t.pending) == 0:
		return false
	case t.closed || t.waiters > 0 || t.queued < deferAbove:
		return true
	case t.queued >= maxQueuedBytes/2 || len(t.pending) >= maxQueuedItems/2:
		return true
	case now.Sub(t.pendingSince) >= maxLag:
		return true
	}
	return now.Sub(t.lastTake) >= quietAfter
}

// eofLocked records the end of stream s, with t.mu held, and reports
// whether to wake the capture goroutine.
func (t *tap) eofLocked(s stream) bool {
	if t.ended[s] {
		return false
	}
	t.ended[s] = true
	base := t.seq
	if t.tail[s] && s != streamStderr {
		t.seq++
	}
	return t.capture && t.enqueue(item{kind: itemEOF, stream: s, at: t.now(), base: base})
}

// eof records the end of stream s.
func (t *tap) eof(s stream) {
	t.mu.Lock()
	wake := !t.closed && t.eofLocked(s)
	t.mu.Unlock()
	if wake {
		t.signal()
	}
}

// note queues a note record, stamped now.
func (t *tap) note(r *capture.Record) {
	t.mu.Lock()
	wake := false
	if !t.closed && t.capture {
		r.Time = t.now()
		wake = t.enqueue(item{kind: itemNote, at: r.Time, rec: r})
	}
	t.mu.Unlock()
	if wake {
		t.signal()
	}
}

// counts returns the frames and bytes relayed so far.
func (t *tap) counts() (frames, n int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int64(t.seq), t.bytes
}

// close ends every stream still open (so a partial line the server or the
// client left is recorded), stops the capture goroutine and returns its
// error. Relays that read later are told to stop.
func (t *tap) close() error {
	t.mu.Lock()
	wake := false
	for s := range numStreams {
		wake = t.eofLocked(s) || wake
	}
	t.closed = true
	if t.capture {
		wake = t.enqueue(item{kind: itemStop, at: t.now()}) || wake
	}
	t.room.Broadcast()
	t.mu.Unlock()
	if wake {
		t.signal()
	}
	if t.recDone == nil {
		return nil
	}
	return <-t.recDone
}
