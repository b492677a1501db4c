package stdio

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/capq"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// queueOptions is the capture queue's policy. Past its bounds (32 MiB,
// 16,384 items) the relays wait for the capture goroutine (backpressure);
// nothing is ever dropped. While traffic flows, the capture goroutine polls
// the queue every millisecond instead of being woken for each chunk, which
// keeps thread wake-ups off the relay path; after 100 empty polls it sleeps
// until a relay wakes it. During a burst (more than 256 KiB queued while a
// relay queued a chunk within the last millisecond), chunks wait for up to
// 50 ms, or until they fill half the queue, so that forwarding gets the CPU
// first and the burst is recorded right after it.
func queueOptions() *capq.Options {
	return &capq.Options{
		MaxBytes:     32 << 20,
		MaxItems:     16 << 10,
		PollInterval: time.Millisecond,
		PollRounds:   100,
		Defer: &capq.Defer{
			Above:      256 << 10,
			QuietAfter: time.Millisecond,
			MaxLag:     50 * time.Millisecond,
		},
	}
}

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
	buf    *readBuffer // data's buffer, when the queue kept a relay's (take)
	rec    *capture.Record
}

// tap is the state one Run shares between its goroutines. The capture
// queue's lock guards the seq counter too, so the queue is in seq order.
type tap struct {
	opts   *Options
	now    func() time.Time
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	// q is the capture queue; its lock guards seq, bytes, tail and ended,
	// which are kept with or without a capture.
	q     *capq.Queue[item]
	seq   uint64 // the last seq handed out
	bytes int64  // frame bytes relayed
	tail  [numStreams]bool
	ended [numStreams]bool

	capture bool // items are queued: a capture or a feed is on
	rec     *recorder
	recDone chan error
	// free recycles the relays' read buffers (bufSize bytes each), which
	// a burst's large reads hand to the queue by the thousand. Unlike a
	// sync.Pool it survives garbage collections, which a burst triggers
	// often: a buffer allocated afresh is 256 KiB the runtime zeroes.
	freeMu sync.Mutex
	free   []*readBuffer
}

// maxFree is how many read buffers free keeps (16 MiB): a burst's
// steady state, where the relays wait for room in the queue, reuses
// them; what a longer burst allocated beyond is left to the collector.
const maxFree = 64

// readBuffer is a relay's read buffer, a slab the relay reads into at
// off. A large read stays in it and is queued as it is: the relay
// forwards it while the capture goroutine records it, both only reading
// it, and reads the next chunk after it while at least minRoom is left.
// refs counts the holds: the relay's, and one for each queued read; the
// buffer goes back to free when the last is dropped.
type readBuffer struct {
	b    []byte
	off  int
	refs atomic.Int32
}

// room returns where the relay reads next.
func (rb *readBuffer) room() []byte { return rb.b[rb.off:] }

// minRoom is the least room a relay reads into: a pipe's capacity, so a
// read is never shorter than a pipe could deliver. A slab holds about
// bufSize/minRoom (4) of a burst's full-pipe reads.
const minRoom = 64 << 10

// keptAbove is the smallest read the queue keeps in its buffer; smaller
// ones, a quiet session's, are copied (allocated exactly). The queue's
// bound counts a kept read's bytes, so the memory it holds is at most
// bufSize/keptAbove (8) times its bound, as with the pooled copies of
// large reads that kept buffers replace.
const keptAbove = bufSize / 8

// readBuf returns a read buffer for a relay, from free if it has one.
func (t *tap) readBuf() *readBuffer {
	t.freeMu.Lock()
	if n := len(t.free); n > 0 {
		rb := t.free[n-1]
		t.free[n-1] = nil
		t.free = t.free[:n-1]
		t.freeMu.Unlock()
		rb.off = 0
		rb.refs.Store(1)
		return rb
	}
	t.freeMu.Unlock()
	rb := &readBuffer{b: make([]byte, bufSize)}
	rb.refs.Store(1)
	return rb
}

// next returns the buffer a relay reads into after the n bytes it read
// into rb's room: rb itself, past them if the queue kept them (kept),
// while minRoom is left; else a fresh one, rb's hold dropped.
func (t *tap) next(rb *readBuffer, n int, kept bool) *readBuffer {
	if !kept {
		return rb
	}
	rb.off += n
	if len(rb.b)-rb.off >= minRoom {
		return rb
	}
	t.unref(rb)
	return t.readBuf()
}

// unref drops a hold on rb, returning it to free after the last.
func (t *tap) unref(rb *readBuffer) {
	if rb.refs.Add(-1) != 0 {
		return
	}
	t.freeMu.Lock()
	if len(t.free) < maxFree {
		t.free = append(t.free, rb)
	}
	t.freeMu.Unlock()
}

func newTap(opts *Options) *tap {
	t := &tap{opts: opts, now: opts.Now, stdin: opts.Stdin, stdout: opts.Stdout, stderr: opts.Stderr, q: capq.New[item](queueOptions())}
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
		w := opts.Capture
		if w == nil {
			w = io.Discard
		}
		t.rec = newRecorder(w, &record.Options{Feed: opts.Feed, OnError: opts.OnCaptureError, Redact: opts.Redact})
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

// take accounts for the n bytes read into rb's room from s and queues
// them for capture. It reports whether to relay them (false once the tap
// is closed), whether the caller must wake the capture goroutine after
// forwarding, and whether the queue kept them in rb: a read of keptAbove
// bytes or more is queued where it is, not copied (a burst's reads are
// mostly such), with a hold on rb. The caller then forwards it all the
// same and reads the next chunk into t.next(rb, n, kept). The seq numbers
// of the chunk's lines are taken before the caller forwards the chunk,
// which is what keeps responses after requests.
func (t *tap) take(s stream, rb *readBuffer, n int) (relay, wake, kept bool) {
	data := rb.room()[:n:n]
	var lines uint64
	if s != streamStderr {
		lines = uint64(bytes.Count(data, []byte{'\n'}))
	}
	var cp []byte
	if t.capture {
		if n >= keptAbove {
			cp = data // kept below, once it is sure to be queued
		} else {
			cp = make([]byte, n)
			copy(cp, data)
		}
	}
	t.q.Lock()
	defer t.q.Unlock()
	if t.capture {
		t.q.WaitRoomLocked(len(cp))
	}
	if t.q.ClosedLocked() {
		return false, false, false // not queued: the caller stops
	}
	base := t.seq
	t.seq += lines
	if s != streamStderr {
		t.bytes += int64(len(data))
	}
	t.tail[s] = data[len(data)-1] != '\n'
	if !t.capture {
		return true, false, false
	}
	arrival := time.Now()
	at := arrival
	if t.opts.Now != nil {
		at = t.now()
	}
	it := item{kind: itemData, stream: s, at: at, base: base, data: cp}
	if n >= keptAbove {
		rb.refs.Add(1)
		it.buf, kept = rb, true
	}
	return true, t.q.PushLocked(it, len(cp), arrival), kept
}

// signal wakes the capture goroutine.
func (t *tap) signal() { t.q.Signal() }

// eofLocked records the end of stream s, with the queue locked, and
// reports whether to wake the capture goroutine.
func (t *tap) eofLocked(s stream) bool {
	if t.ended[s] {
		return false
	}
	t.ended[s] = true
	base := t.seq
	if t.tail[s] && s != streamStderr {
		t.seq++
	}
	return t.capture && t.q.PushLocked(item{kind: itemEOF, stream: s, at: t.now(), base: base}, 0, time.Time{})
}

// eof records the end of stream s.
func (t *tap) eof(s stream) {
	t.q.Lock()
	wake := !t.q.ClosedLocked() && t.eofLocked(s)
	t.q.Unlock()
	if wake {
		t.signal()
	}
}

// note queues a note record, stamped now.
func (t *tap) note(r *capture.Record) {
	t.q.Lock()
	wake := false
	if !t.q.ClosedLocked() && t.capture {
		r.Time = t.now()
		wake = t.q.PushLocked(item{kind: itemNote, at: r.Time, rec: r}, 0, time.Time{})
	}
	t.q.Unlock()
	if wake {
		t.signal()
	}
}

// counts returns the frames and bytes relayed so far.
func (t *tap) counts() (frames, n int64) {
	t.q.Lock()
	defer t.q.Unlock()
	return int64(t.seq), t.bytes
}

// close ends every stream still open (so a partial line the server or the
// client left is recorded), stops the capture goroutine and returns its
// error. Relays that read later are told to stop.
func (t *tap) close() error {
	t.q.Lock()
	wake := false
	for s := range numStreams {
		wake = t.eofLocked(s) || wake
	}
	t.q.CloseLocked()
	if t.capture {
		wake = t.q.PushLocked(item{kind: itemStop, at: t.now()}, 0, time.Time{}) || wake
	}
	t.q.Unlock()
	if wake {
		t.signal()
	}
	if t.recDone == nil {
		return nil
	}
	return <-t.recDone
}
