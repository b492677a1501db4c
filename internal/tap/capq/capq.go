// Package capq is the capture queue both taps share. It sits between a
// tap's relays, which push items in seq order, and the tap's capture
// goroutine, which takes them in that order and turns them into capture
// records (capture.Writer, the live feed). What an item is and how it
// becomes records is the tap's business: a chunk of bytes for the stdio
// tap, a record slot for the HTTP tap.
//
// # Order
//
// One mutex guards the queue; the tap holds it (Lock) while it hands out
// seq numbers and pushes or reserves the items that carry them, so the
// queue is in seq order. A reserved item is filled later; the consumer
// takes only the filled items at the head, so it never passes one that is
// still being filled.
//
// # Backpressure, never drop
//
// The queue is bounded in bytes and in items. A producer that finds it full
// waits (WaitRoomLocked) until the consumer has recorded enough; nothing is
// ever dropped.
//
// # Wake-ups
//
// While traffic flows, the consumer polls every Options.PollInterval
// instead of being woken for each item, which keeps thread wake-ups off the
// relay path; after Options.PollRounds empty polls it sleeps until woken,
// and only then does a push report that the consumer must be signalled.
// With Options.Defer, a burst is left in the queue for a while so that
// forwarding gets the CPU first and the burst is recorded right after it.
//
// # Concurrency
//
// Methods whose names end in Locked must be called with the lock held; the
// others take it themselves. Next is called by one goroutine only, the
// consumer.
package capq

import (
	"sync"
	"time"
)

// Default bounds and polling, used for zero Options fields.
const (
	DefaultMaxBytes     = 32 << 20
	DefaultMaxItems     = 16 << 10
	DefaultPollInterval = time.Millisecond
)

// Options are a Queue's bounds and wake-up policy.
type Options struct {
	// MaxBytes and MaxItems bound the queue: past either, WaitRoomLocked
	// waits. Zero means DefaultMaxBytes and DefaultMaxItems. The bytes are
	// those the items were pushed or filled with, held until the consumer
	// reports them done; the items are those not yet taken.
	MaxBytes, MaxItems int
	// PollInterval is how often the consumer looks at the queue while it
	// polls; zero means DefaultPollInterval.
	PollInterval time.Duration
	// PollRounds is how many empty polls the consumer makes before it
	// sleeps until a push wakes it; zero means it sleeps at once, a
	// negative value that it never sleeps.
	PollRounds int
	// Defer, when not nil, holds bursts back (see Defer); nil records items
	// as soon as they are filled.
	Defer *Defer
}

// Defer is the burst policy: while more than Above bytes are queued and
// an item arrived within QuietAfter, the consumer leaves the items queued
// for up to MaxLag, or until they fill half the queue or a producer waits
// for room.
type Defer struct {
	Above      int
	QuietAfter time.Duration
	MaxLag     time.Duration
}

// Ticket names a reserved item, for FillLocked.
type Ticket uint64

// Queue is an ordered, bounded queue of items of type T with one consumer.
// Create it with New.
type Queue[T any] struct {
	opts Options

	mu       sync.Mutex
	room     sync.Cond
	pending  []T
	filled   []bool // per pending item; all true while unfilled is 0
	unfilled int
	taken    uint64 // items ever taken, so pending[0] is Ticket(taken)
	held     int    // bytes of the pending items and of those being recorded
	waiters  int
	closed   bool
	sleeping bool
	wake     chan struct{}
	// lastArrival is when traffic last arrived, pendingSince when the
	// oldest pending item was pushed (monotonic clock readings, kept only
	// with Options.Defer).
	lastArrival  time.Time
	pendingSince time.Time

	poll *time.Timer // the consumer's
}

// New returns an empty Queue with opts (nil: defaults).
func New[T any](opts *Options) *Queue[T] {
	q := &Queue[T]{wake: make(chan struct{}, 1)}
	if opts != nil {
		q.opts = *opts
	}
	if q.opts.MaxBytes <= 0 {
		q.opts.MaxBytes = DefaultMaxBytes
	}
	if q.opts.MaxItems <= 0 {
		q.opts.MaxItems = DefaultMaxItems
	}
	if q.opts.PollInterval <= 0 {
		q.opts.PollInterval = DefaultPollInterval
	}
	q.room.L = &q.mu
	return q
}

// Lock locks the queue; a tap holds it while it hands out seq numbers.
func (q *Queue[T]) Lock() { q.mu.Lock() }

// Unlock unlocks the queue.
func (q *Queue[T]) Unlock() { q.mu.Unlock() }

// WaitRoomLocked blocks until the queue has room for an item of n bytes,
// or is closed. An item larger than the queue gets in when it is empty.
func (q *Queue[T]) WaitRoomLocked(n int) {
	for !q.closed && (q.held > 0 || len(q.pending) > 0) &&
		(q.held+n > q.opts.MaxBytes || len(q.pending) >= q.opts.MaxItems) {
		// The producer that owes the consumer a wake-up may be stuck
		// writing to a slow peer: wake it from here too.
		q.Signal()
		q.waiters++
		q.room.Wait()
		q.waiters--
	}
}

// PushLocked appends a filled item of n bytes. arrival, when not zero, is
// when traffic arrived (a time.Now reading), which Options.Defer watches;
// zero marks an item the tap made itself (an end of stream, a note). It
// reports whether the consumer sleeps and must be woken with Signal.
func (q *Queue[T]) PushLocked(v T, n int, arrival time.Time) bool {
	q.arrive(arrival)
	q.pending = append(q.pending, v)
	q.filled = append(q.filled, true)
	q.held += n
	return q.woken()
}

// ReserveLocked appends v as an item that FillLocked completes later; the
// consumer stops before it until then.
func (q *Queue[T]) ReserveLocked(v T) Ticket {
	q.arrive(time.Time{})
	t := Ticket(q.taken + uint64(len(q.pending)))
	q.pending = append(q.pending, v)
	q.filled = append(q.filled, false)
	q.unfilled++
	return t
}

// FillLocked completes the reserved item t, which now holds n bytes, and
// reports whether the consumer sleeps and must be woken with Signal.
func (q *Queue[T]) FillLocked(t Ticket, n int) bool {
	q.filled[uint64(t)-q.taken] = true
	q.unfilled--
	q.held += n
	return q.woken()
}

// FillAllLocked marks every reserved item filled, calling mark for each,
// so that a consumer waiting for a producer that never fills can go on.
func (q *Queue[T]) FillAllLocked(mark func(T)) {
	for i, f := range q.filled {
		if !f {
			q.filled[i] = true
			mark(q.pending[i])
		}
	}
	q.unfilled = 0
}

// CloseLocked closes the queue: producers waiting for room go on, Defer
// holds nothing back, and Next reports the end once the queue is empty.
// Items may still be pushed (a last end-of-capture item, say).
func (q *Queue[T]) CloseLocked() {
	q.closed = true
	q.room.Broadcast()
}

// ClosedLocked reports whether CloseLocked was called.
func (q *Queue[T]) ClosedLocked() bool { return q.closed }

// Signal wakes the consumer.
func (q *Queue[T]) Signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// arrive notes a push for the Defer policy.
func (q *Queue[T]) arrive(arrival time.Time) {
	if q.opts.Defer == nil {
		return
	}
	if !arrival.IsZero() {
		q.lastArrival = arrival
	}
	if len(q.pending) == 0 {
		if arrival.IsZero() {
			arrival = time.Now()
		}
		q.pendingSince = arrival
	}
}

// woken reports whether the consumer sleeps, and notes that it is being
// woken.
func (q *Queue[T]) woken() bool {
	if q.sleeping {
		q.sleeping = false
		return true
	}
	return false
}
