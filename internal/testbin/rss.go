package testbin

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// RSSWatch samples a process's peak resident set size (VmHWM in
// /proc/PID/status, Linux only) until Stop.
type RSSWatch struct {
	pid  int
	stop chan struct{}
	done sync.WaitGroup
	peak int64 // bytes; written by the sampler, read after done
}

// WatchRSS starts sampling pid's VmHWM every 10 ms.
func WatchRSS(pid int) *RSSWatch {
	w := &RSSWatch{pid: pid, stop: make(chan struct{})}
	w.done.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if n, err := VmHWM(w.pid); err == nil {
				w.peak = max(w.peak, n)
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	})
	return w
}

// Stop ends the sampling and returns the highest VmHWM seen, in bytes; 0
// where /proc is not available.
func (w *RSSWatch) Stop() int64 {
	close(w.stop)
	w.done.Wait()
	return w.peak
}

// VmHWM reads pid's peak resident set size, in bytes, from
// /proc/PID/status.
func VmHWM(pid int) (int64, error) {
	return procStatusKB(pid, "VmHWM:")
}

// procStatusKB reads the field key (a size in kB) of /proc/PID/status, in
// bytes.
func procStatusKB(pid int, key string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(b) {
		rest, ok := bytes.CutPrefix(line, []byte(key))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			break
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s of %d: %w", key, pid, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no %s for process %d", key, pid)
}

// VmRSS reads pid's current resident set size, in bytes, from
// /proc/PID/status.
func VmRSS(pid int) (int64, error) {
	return procStatusKB(pid, "VmRSS:")
}
