//go:build !linux

package testbin

import "os"

// MaxRSS reports that this platform's peak resident set size is not
// measured here (see maxrss_linux.go).
func MaxRSS(*os.ProcessState) (int64, bool) { return 0, false }
