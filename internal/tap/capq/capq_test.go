package capq

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// drain runs the consumer until the queue is closed and empty, reporting
// each item's bytes done, and returns the items in the order taken.
func drain(q *Queue[int], size func(int) int) []int {
	var got, batch []int
	done := 0
	for {
		var more bool
		batch, more = q.Next(batch, done, nil)
		if !more {
			return got
		}
		done = 0
		for _, v := range batch {
			got = append(got, v)
			done += size(v)
		}
	}
}

// TestReserveFillOrder: items filled out of order are taken in the order
// they were reserved, and the consumer never passes an unfilled one.
func TestReserveFillOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fill []int // the order in which the reserved items 0..n-1 are filled
	}{
		{"in order", []int{0, 1, 2, 3, 4}},
		{"reversed", []int{4, 3, 2, 1, 0}},
		{"head last", []int{1, 2, 3, 4, 0}},
		{"interleaved", []int{2, 0, 4, 1, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := New[int](&Options{PollRounds: -1})
			tickets := make([]Ticket, len(tc.fill))
			q.Lock()
			for i := range tickets {
				tickets[i] = q.ReserveLocked(i)
			}
			q.Unlock()
			got := make(chan []int, 1)
			go func() { got <- drain(q, func(int) int { return 1 }) }()
			for _, i := range tc.fill {
				q.Lock()
				q.FillLocked(tickets[i], 1)
				q.Unlock()
				q.Signal()
			}
			q.Lock()
			q.CloseLocked()
			q.Unlock()
			q.Signal()
			if diff := cmp.Diff([]int{0, 1, 2, 3, 4}, <-got); diff != "" {
				t.Errorf("taken (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPartialTake: with the third of five items unfilled, the consumer
// takes the first two and no more until it is filled.
func TestPartialTake(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		q := New[int](&Options{PollRounds: -1})
		var tickets []Ticket
		q.Lock()
		for i := range 5 {
			tickets = append(tickets, q.ReserveLocked(i))
		}
		for i, tk := range tickets {
			if i != 2 {
				q.FillLocked(tk, 1)
			}
		}
		q.Unlock()
		batch, more := q.Next(nil, 0, nil)
		if diff := cmp.Diff([]int{0, 1}, batch); diff != "" || !more {
			t.Fatalf("first batch (-want +got):\n%s (more %v)", diff, more)
		}
		next := make(chan []int, 1)
		go func() {
			b, _ := q.Next(nil, 2, nil)
			next <- b
		}()
		synctest.Wait()
		select {
		case b := <-next:
			t.Fatalf("Next returned %v before the head was filled", b)
		default:
		}
		q.Lock()
		q.FillLocked(tickets[2], 1)
		q.Unlock()
		q.Signal()
		if diff := cmp.Diff([]int{2, 3, 4}, <-next); diff != "" {
			t.Errorf("second batch (-want +got):\n%s", diff)
		}
	})
}

// TestBackpressure: producers pushing far more than the bounds wait for
// room and lose nothing; the queue never holds more than its bounds
// (besides one item let into an empty queue).
func TestBackpressure(t *testing.T) {
	t.Parallel()
	const maxBytes, maxItems, producers, each = 100, 8, 4, 500
	q := New[int](&Options{MaxBytes: maxBytes, MaxItems: maxItems, PollRounds: 0})
	var wg sync.WaitGroup
	seq := 0
	var overflow []string
	for range producers {
		wg.Go(func() {
			for range each {
				q.Lock()
				q.WaitRoomLocked(10)
				if q.held+10 > maxBytes || len(q.pending) >= maxItems {
					overflow = append(overflow, "pushed into a full queue")
				}
				wake := q.PushLocked(seq, 10, time.Time{})
				seq++
				q.Unlock()
				if wake {
					q.Signal()
				}
			}
		})
	}
	got := make(chan []int, 1)
	go func() { got <- drain(q, func(int) int { return 10 }) }()
	wg.Wait()
	q.Lock()
	q.CloseLocked()
	q.Unlock()
	q.Signal()
	all := <-got
	want := make([]int, producers*each)
	for i := range want {
		want[i] = i
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("taken (-want +got):\n%s", diff)
	}
	if len(overflow) > 0 {
		t.Errorf("%d pushes past the bounds", len(overflow))
	}
}

// TestDefer: during a burst (more than Above queued, traffic within
// QuietAfter) the consumer leaves the items queued; it takes them once
// traffic has been quiet for QuietAfter, or after MaxLag at the latest.
func TestDefer(t *testing.T) {
	t.Parallel()
	d := &Defer{Above: 100, QuietAfter: 10 * time.Millisecond, MaxLag: 50 * time.Millisecond}
	tests := []struct {
		name   string
		first  int           // the bytes of the first push, before the consumer looks
		every  time.Duration // time between the next pushes, of 60 bytes each
		pushes int
		want   time.Duration // when the consumer first takes, after the first push
	}{
		{"below Above: at once", 60, 0, 1, 0},
		{"burst then quiet", 120, time.Millisecond, 5, 4*time.Millisecond + d.QuietAfter},
		{"endless burst: MaxLag", 120, time.Millisecond, 200, d.MaxLag},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				q := New[int](&Options{PollInterval: time.Millisecond, PollRounds: 100, Defer: d})
				start := time.Now()
				q.Lock()
				q.PushLocked(0, tc.first, start)
				q.Unlock()
				took := make(chan time.Duration, 1)
				go func() {
					_, _ = q.Next(nil, 0, nil)
					took <- time.Since(start)
				}()
				for i := 1; i < tc.pushes; i++ {
					time.Sleep(tc.every) // fake time in the synctest bubble: a producer's pace
					q.Lock()
					wake := q.PushLocked(i, 60, time.Now())
					q.Unlock()
					if wake {
						q.Signal()
					}
					select {
					case at := <-took:
						if at != tc.want {
							t.Errorf("taken at %v, want %v", at, tc.want)
						}
						return
					default:
					}
				}
				if at := <-took; at != tc.want {
					t.Errorf("taken at %v, want %v", at, tc.want)
				}
			})
		})
	}
}

// TestSleepAndWake: after PollRounds empty polls the consumer sleeps and
// the next push reports that it must be woken; before that it does not.
func TestSleepAndWake(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		q := New[int](&Options{PollInterval: time.Millisecond, PollRounds: 3})
		idle := 0
		got := make(chan []int, 1)
		go func() {
			b, _ := q.Next(nil, 0, func() { idle++ })
			got <- b
		}()
		time.Sleep(time.Millisecond / 2) // fake time in the synctest bubble: mid-poll
		q.Lock()
		early := q.PushLocked(1, 1, time.Now())
		q.Unlock()
		if early {
			t.Error("a push while the consumer polls asks for a wake-up")
		}
		if diff := cmp.Diff([]int{1}, <-got); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		go func() {
			b, _ := q.Next(nil, 1, func() { idle++ })
			got <- b
		}()
		time.Sleep(10 * time.Millisecond) // fake time in the synctest bubble: past PollRounds
		synctest.Wait()
		q.Lock()
		late := q.PushLocked(2, 1, time.Now())
		q.Unlock()
		if !late {
			t.Fatal("a push while the consumer sleeps does not ask for a wake-up")
		}
		q.Signal()
		if diff := cmp.Diff([]int{2}, <-got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if idle != 2 {
			t.Errorf("idle called %d times, want once per Next that waited", idle)
		}
	})
}
