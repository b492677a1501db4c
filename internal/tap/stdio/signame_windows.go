package stdio

import (
	"fmt"
	"os"
	"syscall"
)

// signalName returns the conventional name of sig ("SIGINT"). On Windows
// the runtime reports Ctrl-C and Ctrl-Break as SIGINT (os.Interrupt) and a
// closed console, log-off or shutdown as SIGTERM.
func signalName(sig os.Signal) string {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return sig.String()
	}
	switch s {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return fmt.Sprintf("SIG%d", int(s))
}
