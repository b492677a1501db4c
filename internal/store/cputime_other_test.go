//go:build !unix

package store

import "time"

// cpuTime returns zero: this platform's CPU time is not read.
func cpuTime() time.Duration { return 0 }
