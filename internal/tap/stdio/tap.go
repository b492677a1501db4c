package stdio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// ErrNoCommand is returned by Run when Options.Command is empty.
var ErrNoCommand = errors.New("no server command")

// drainGrace is how long Run keeps reading the server's stdout and stderr
// after the server exited, for a grandchild that still holds them open.
const drainGrace = 2 * time.Second

// Options configures Run.
type Options struct {
	// Command is the server's argv; required.
	Command []string
	// Stdin is what the client writes (client→server bytes). Nil means
	// the client sends nothing: the server's stdin is closed at once.
	Stdin io.Reader
	// Stdout receives the server's stdout (server→client bytes). Nil
	// discards them.
	Stdout io.Writer
	// Stderr receives the server's stderr, which is also captured. Nil
	// discards it.
	Stderr io.Writer
	// Capture receives the capture records. Nil means no capture.
	Capture io.Writer
	// SpoolDir is where a line longer than capture.SpoolAbove waits, in
	// a temporary file, until it is complete and recorded; empty means
	// the system's temporary directory. Best next to the capture.
	SpoolDir string
	// Header holds the session fields the caller knows (SessionID, Label,
	// ToolVersion); Run fills in type, format, transport, command and time.
	Header capture.Record
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Signals are passed on to the server as they arrive; nil means none.
	Signals <-chan os.Signal
	// Env is the server's environment; nil inherits ours.
	Env []string
	// Redact, when non-nil, rewrites what the capture records, on the
	// capture goroutine; the bytes relayed between the peers are never
	// touched. Nil records everything as received.
	Redact Redactor
	// BeforeEnd, when non-nil, is called once after the server exited,
	// just before the end record; the records it returns (notes) are
	// written to the capture first. Nil adds nothing.
	BeforeEnd func() []capture.Record
}

// Result says how a session ended.
type Result struct {
	// ExitCode is the server's exit status, or 128+n when signal n killed
	// it.
	ExitCode int
	// Signal names the signal that killed the server ("SIGTERM"); empty
	// when it exited on its own.
	Signal string
	// Frames counts the frames relayed in both directions, including a
	// last line without a newline; Bytes counts their bytes.
	Frames int64
	Bytes  int64
}

// Run starts the server, relays bytes between it and the client until the
// server exits, and writes the capture. It returns the server's exit status
// in Result. A non-nil error with a non-nil Result means the session ran
// but its capture is incomplete (the error says what was lost); with a nil
// Result the server could not be started.
func Run(ctx context.Context, opts *Options) (*Result, error) {
	if opts == nil || len(opts.Command) == 0 {
		return nil, ErrNoCommand
	}
	t := newTap(opts)
	t.startCapture()
	p, err := t.start(ctx)
	if err != nil {
		t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteStartFailed, Text: err.Error()})
		if cerr := t.close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return nil, fmt.Errorf("starting %s: %w", opts.Command[0], err)
	}
	var outs sync.WaitGroup
	outs.Add(2)
	go func() { defer outs.Done(); t.relayOut(p.stdout, t.stdout, streamS2C) }()
	go func() { defer outs.Done(); t.relayOut(p.stderr, t.stderr, streamStderr) }()
	go t.relayIn(t.stdin, p.stdin)
	sigDone := make(chan struct{})
	go t.forwardSignals(p.cmd.Process, sigDone)

	waitErr := p.cmd.Wait()
	close(sigDone)
	t.drain(&outs, p)
	res := &Result{}
	if p.cmd.ProcessState == nil {
		t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteRelayError, Text: fmt.Sprintf("waiting for server: %v", waitErr)})
		res.ExitCode = 1
	} else {
		res.ExitCode, res.Signal = exitStatus(p.cmd.ProcessState)
		t.note(exitNote(res))
	}
	if opts.BeforeEnd != nil {
		for _, n := range opts.BeforeEnd() {
			t.note(&n)
		}
	}
	_ = p.stdin.Close()
	err = t.close()
	res.Frames, res.Bytes = t.counts()
	return res, err
}

// process is a started server and our ends of its pipes.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *os.File
}

// start spawns the server with its stdio connected to fresh pipes.
func (t *tap) start(ctx context.Context) (*process, error) {
	argv := t.opts.Command
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = t.opts.Env
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
	return &process{cmd: cmd, stdin: ours[0], stdout: ours[1], stderr: ours[2]}, nil
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

// forwardSignals passes each signal from Options.Signals to the server
// until done is closed.
func (t *tap) forwardSignals(proc *os.Process, done <-chan struct{}) {
	if t.opts.Signals == nil {
		return
	}
	for {
		select {
		case <-done:
			return
		case sig := <-t.opts.Signals:
			n := &capture.Record{Type: capture.TypeNote, Note: capture.NoteSignal, Signal: signalName(sig)}
			if err := proc.Signal(sig); err != nil {
				n.Text = fmt.Sprintf("passing %s to the server: %v", n.Signal, err)
			}
			t.note(n)
		}
	}
}
