//go:build !windows

package stdio

import (
	"os"
	"syscall"
)

// sysProcess is what Unix needs to end a server: nothing beyond its pid.
type sysProcess struct {
	proc *os.Process
}

// started records the started server.
func (s *sysProcess) started(proc *os.Process) error {
	s.proc = proc
	return nil
}

// interrupt passes sig on to the server.
func (s *sysProcess) interrupt(sig os.Signal) error { return s.proc.Signal(sig) }

// kill sends the server SIGKILL.
func (s *sysProcess) kill() error { return s.proc.Kill() }

// release frees what started acquired; nothing on Unix.
func (s *sysProcess) release() {}

// politeStop is the signal mcptrail itself sends to ask the server to
// exit, when the client went away.
func politeStop() os.Signal { return syscall.SIGTERM }
