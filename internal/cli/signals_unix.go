//go:build !windows

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that ask a proxy to stop: Ctrl-C, kill and
// a terminal hang-up.
func stopSignals() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
}

// catchSIGPIPE makes a write to a client that went away fail with EPIPE
// (which ends the session cleanly, with a capture note) instead of killing
// us mid-capture. The returned function undoes it.
func catchSIGPIPE() (stop func()) {
	pipes := make(chan os.Signal, 1)
	signal.Notify(pipes, syscall.SIGPIPE)
	return func() { signal.Stop(pipes) }
}
