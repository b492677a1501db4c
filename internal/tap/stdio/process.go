package stdio

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// process is a started server, our ends of its pipes, and what the
// platform needs to end it (process_unix.go, process_windows.go).
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *os.File
	sys    sysProcess
}

// start spawns the server with its stdio connected to fresh pipes. On
// Linux the server gets SIGKILL if mcptrail dies (procattr_linux.go); on
// Windows it runs in a job object that ends its process tree with us.
func (t *tap) start(ctx context.Context) (*process, error) {
	argv := t.opts.Command
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = t.opts.Env
	cmd.SysProcAttr = sysProcAttr()
	var theirs, ours [3]*os.File
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			if f != nil {
				_ = f.Close()
			}
		}
	}
	for i := range 3 {
		r, w, err := pipe()
		if err != nil {
			closeAll(theirs[:])
			closeAll(ours[:])
			return nil, err
		}
		if i == 0 {
			theirs[i], ours[i] = r, w
		} else {
			theirs[i], ours[i] = w, r
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = theirs[0], theirs[1], theirs[2]
	err := cmd.Start()
	closeAll(theirs[:])
	if err != nil {
		closeAll(ours[:])
		return nil, err
	}
	p := &process{cmd: cmd, stdin: ours[0], stdout: ours[1], stderr: ours[2]}
	if err := p.sys.started(cmd.Process); err != nil {
		t.relayError("tying the server's process tree to mcptrail", err)
	}
	return p, nil
}

// drain waits for the server's stdout and stderr to reach EOF. After
// drainGrace it gives up on a pipe that something else (a grandchild)
// still holds open: that relay is abandoned, and stops at its next read.
func (t *tap) drain(outs *sync.WaitGroup, p *process) {
	done := make(chan struct{})
	go func() { outs.Wait(); close(done) }()
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		t.relayError("reading the server's output", fmt.Errorf("still open %v after the server exited; stopped reading", drainGrace))
	}
	_ = p.stdout.Close()
	_ = p.stderr.Close()
}
