//go:build unix

package store

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process used so far (user and system,
// every thread, so the garbage collector's share counts), or zero where
// it cannot be told.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
