package testbin

import (
	"bytes"
	"sync"
	"syscall"
)

// FullDisk is a capture writer that accepts Limit bytes, then fails like a
// full disk (syscall.ENOSPC, having written what fitted). Once Free is
// called, the writes after the first failure succeed again, as when space
// was freed: a tap's capture-gap note can then reach the file. It is safe
// for concurrent use.
type FullDisk struct {
	// Limit is how many bytes fit; zero fails the first write.
	Limit int

	mu     sync.Mutex
	buf    bytes.Buffer
	failed bool
	freed  bool
}

// Write appends p, or what of it fits before the limit.
func (d *FullDisk) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failed && d.freed {
		return d.buf.Write(p)
	}
	room := d.Limit - d.buf.Len()
	if room >= len(p) {
		return d.buf.Write(p)
	}
	d.failed = true
	if room > 0 {
		d.buf.Write(p[:room])
	}
	return max(room, 0), syscall.ENOSPC
}

// Free makes the writes after the first failure succeed.
func (d *FullDisk) Free() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.freed = true
}

// Failed reports whether a write has failed.
func (d *FullDisk) Failed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.failed
}

// Bytes returns a copy of what was written.
func (d *FullDisk) Bytes() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return bytes.Clone(d.buf.Bytes())
}
