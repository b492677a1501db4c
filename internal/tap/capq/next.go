package capq

import "time"

// Next hands the consumer the filled items at the head of the queue, in
// order, reusing batch's array, once the wake-up policy says they are
// ready. done is the bytes of the items the consumer finished since its
// last call; their room is released first. While nothing is ready, Next
// calls idle (when not nil) once, then polls or sleeps. It reports false,
// with an empty batch, when the queue is closed and empty.
func (q *Queue[T]) Next(batch []T, done int, idle func()) ([]T, bool) {
	empty := 0
	q.mu.Lock()
	for {
		q.held -= done
		done = 0
		if q.waiters > 0 {
			q.room.Broadcast()
		}
		k := q.filledLocked()
		if k > 0 && q.readyLocked() {
			batch = q.takeLocked(batch, k)
			q.mu.Unlock()
			return batch, true
		}
		if q.closed && len(q.pending) == 0 {
			q.mu.Unlock()
			return batch[:0], false
		}
		// Items held back by Defer wait for time to pass: poll.
		deferred := k > 0
		q.sleeping = !deferred && q.opts.PollRounds >= 0 && empty >= q.opts.PollRounds
		sleep := q.sleeping
		q.mu.Unlock()
		if empty == 0 && idle != nil {
			idle()
		}
		q.wait(sleep)
		if !deferred {
			empty++
		}
		q.mu.Lock()
	}
}

// wait sleeps until Signal, or at most PollInterval unless sleep.
func (q *Queue[T]) wait(sleep bool) {
	if sleep {
		<-q.wake
		return
	}
	if q.poll == nil {
		q.poll = time.NewTimer(q.opts.PollInterval)
	} else {
		q.poll.Reset(q.opts.PollInterval)
	}
	select {
	case <-q.wake:
	case <-q.poll.C:
	}
}

// filledLocked returns how many items at the head are filled.
func (q *Queue[T]) filledLocked() int {
	if q.unfilled == 0 {
		return len(q.pending)
	}
	k := 0
	for k < len(q.filled) && q.filled[k] {
		k++
	}
	return k
}

// readyLocked reports whether the filled items should be taken now (see
// Defer).
func (q *Queue[T]) readyLocked() bool {
	d := q.opts.Defer
	switch {
	case d == nil:
		return true
	case q.closed || q.waiters > 0 || q.held < d.Above:
		return true
	case q.held >= q.opts.MaxBytes/2 || len(q.pending) >= q.opts.MaxItems/2:
		return true
	}
	now := time.Now()
	return now.Sub(q.pendingSince) >= d.MaxLag || now.Sub(q.lastArrival) >= d.QuietAfter
}

// takeLocked moves the first k items from the queue to batch[:0].
func (q *Queue[T]) takeLocked(batch []T, k int) []T {
	q.taken += uint64(k)
	if k == len(q.pending) {
		// The usual case: swap arrays rather than copy.
		batch, q.pending = q.pending, batch[:0]
		q.filled = q.filled[:0]
		return batch
	}
	batch = append(batch[:0], q.pending[:k]...)
	n := copy(q.pending, q.pending[k:])
	clear(q.pending[n:])
	q.pending = q.pending[:n]
	q.filled = q.filled[:copy(q.filled, q.filled[k:])]
	return batch
}
