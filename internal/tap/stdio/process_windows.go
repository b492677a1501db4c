package stdio

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// errNoSignals says why a signal is not passed on.
var errNoSignals = errors.New("windows cannot pass a signal on; Ctrl-C and Ctrl-Break reach a server on the same console directly")

// sysProcess ties the server's process tree to a job object that is
// killed when its last handle closes: when mcptrail exits, however it
// dies, the tree goes with it, and kill ends the whole tree.
type sysProcess struct {
	proc *os.Process
	job  windows.Handle
}

// started puts the server in a new kill-on-close job. A server that
// started children before it was assigned leaves those outside the job.
func (s *sysProcess) started(proc *os.Process) error {
	s.proc = proc
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("setting up job object: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(proc.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("opening the server process: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("assigning the server to a job object: %w", err)
	}
	s.job = job
	return nil
}

// interrupt cannot pass a signal on: Windows has none to send to another
// console process. The console already delivered Ctrl-C or Ctrl-Break to
// the server; kill follows after the grace period.
func (s *sysProcess) interrupt(os.Signal) error { return errNoSignals }

// kill ends the server's process tree (the server alone if it is not in a
// job).
func (s *sysProcess) kill() error {
	if s.job != 0 {
		return windows.TerminateJobObject(s.job, 1)
	}
	return s.proc.Kill()
}

// release closes the job, which ends whatever is left of the tree.
func (s *sysProcess) release() {
	if s.job != 0 {
		windows.CloseHandle(s.job)
		s.job = 0
	}
}

// politeStop is the signal mcptrail itself asks the server to exit with
// when the client went away; on Windows interrupt cannot send it, so the
// server is killed when the grace period ends.
func politeStop() os.Signal { return os.Interrupt }
