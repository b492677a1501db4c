package testbin

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// Usage is what a test can leak: this process's goroutines and open file
// descriptors (FDs is -1 where /proc/self/fd is not there, and the
// descriptor check is then vacuous).
type Usage struct {
	Goroutines int
	FDs        int
}

// CountUsage counts the process's goroutines and open descriptors now. A
// test that takes it as a baseline must not run in parallel: the counts are
// the process's, not the test's.
func CountUsage() Usage {
	fds := -1
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		fds = len(ents)
	}
	return Usage{Goroutines: runtime.NumGoroutine(), FDs: fds}
}

// NoLeak waits, up to within, until the goroutines and descriptors are back
// at (or below) base, and returns the last count; past within it fails t
// with both counts and every goroutine's stack. The wait polls: a goroutine
// told to stop may take a moment to return, and nothing here orders events.
func NoLeak(t testing.TB, base Usage, within time.Duration) Usage {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		u := CountUsage()
		if u.Goroutines <= base.Goroutines && u.FDs <= base.FDs {
			return u
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("leak after %v: goroutines %d (baseline %d), descriptors %d (baseline %d)\n%s",
				within, u.Goroutines, base.Goroutines, u.FDs, base.FDs, buf)
		}
		time.Sleep(10 * time.Millisecond) // polling counts, not ordering events
	}
}
