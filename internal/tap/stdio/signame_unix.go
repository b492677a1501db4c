//go:build !windows

package stdio

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// signalName returns the conventional name of sig ("SIGTERM").
func signalName(sig os.Signal) string {
	if s, ok := sig.(syscall.Signal); ok {
		if n := unix.SignalName(s); n != "" {
			return n
		}
	}
	return sig.String()
}
