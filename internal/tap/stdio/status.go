package stdio

import (
	"fmt"
	"os"
	"syscall"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// exitStatus returns a shell-style status: the exit code, or 128+n with the
// signal's name when signal n killed the process.
func exitStatus(ps *os.ProcessState) (int, string) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), signalName(ws.Signal())
	}
	return ps.ExitCode(), ""
}

// exitNote is the server-exit note for res.
func exitNote(res *Result) *capture.Record {
	n := &capture.Record{Type: capture.TypeNote, Note: capture.NoteServerExit, Signal: res.Signal}
	if res.Signal == "" {
		code := res.ExitCode
		n.Exit = &code
	}
	return n
}

// signalName returns the conventional name of sig ("SIGTERM").
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
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGILL:
		return "SIGILL"
	case syscall.SIGTRAP:
		return "SIGTRAP"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGBUS:
		return "SIGBUS"
	case syscall.SIGFPE:
		return "SIGFPE"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGUSR1:
		return "SIGUSR1"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGUSR2:
		return "SIGUSR2"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGALRM:
		return "SIGALRM"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return fmt.Sprintf("SIG%d", int(s))
}
