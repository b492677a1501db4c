package testbin

import (
	"os"
	"syscall"
)

// MaxRSS returns the peak resident set size in bytes of the process that
// ps describes, and whether the platform reports it (Linux: ru_maxrss, in
// KiB).
func MaxRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int64(ru.Maxrss) * 1024, true
}
