package source

import (
	"os"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// probeEvery is how often a follower waiting at the end of a capture asks
// whether its writer is still there.
const probeEvery = 200 * time.Millisecond

// liveness tells whether a capture's writer is still there: its lock
// (capture.WriterAlive), or where no lock can be probed, growth within
// staleAfter. It probes at most every probeEvery.
type liveness struct {
	path  string
	next  time.Time
	alive bool
}

func newLiveness(path string) *liveness {
	l := &liveness{path: path}
	l.check(time.Now())
	return l
}

// check reports whether the writer is alive, probing if it is time.
func (l *liveness) check(now time.Time) bool {
	if now.Before(l.next) {
		return l.alive
	}
	l.next = now.Add(probeEvery)
	alive, known := capture.WriterAlive(l.path)
	if !known {
		fi, err := os.Stat(l.path)
		alive = err == nil && now.Sub(fi.ModTime()) < staleAfter
	}
	l.alive = alive
	return alive
}
