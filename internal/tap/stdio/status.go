package stdio

import (
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

// exitNote is the server-exit note for res; l says whether the server
// ended on a stop request.
func exitNote(res *Result, l *life) *capture.Record {
	n := &capture.Record{Type: capture.TypeNote, Note: capture.NoteServerExit, Signal: res.Signal}
	if res.Signal == "" {
		code := res.ExitCode
		n.Exit = &code
	}
	by, age := l.stoppedBy(res.ExitCode, res.Signal)
	n.StoppedBy, n.EOFAgeUS = by, age.Microseconds()
	return n
}
