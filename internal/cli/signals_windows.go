package cli

import (
	"os"
	"syscall"
)

// stopSignals are the signals that ask a proxy to stop. Go reports Ctrl-C
// and Ctrl-Break as os.Interrupt, and a closed console window, log-off or
// shutdown as SIGTERM.
func stopSignals() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM}
}

// catchSIGPIPE does nothing: Windows has no SIGPIPE, and a write to a
// client that went away fails with an error.
func catchSIGPIPE() (stop func()) { return func() {} }
