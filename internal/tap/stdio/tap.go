package stdio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
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
	// Feed, when not nil, is handed every record the capture gets, in
	// capture order, as the capture goroutine writes it (live consumers);
	// with a nil Capture the records go to the Feed only. Nil means none.
	Feed *feed.Feed
	// SpoolDir is where a line longer than capture.SpoolAbove waits, in
	// a temporary file, until it is complete and recorded; empty means
	// the system's temporary directory. Best next to the capture.
	SpoolDir string
	// Header holds the session fields the caller knows (SessionID, Label,
	// ToolVersion); Run fills in type, format, transport, command and time.
	Header capture.Record
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Signals are requests to stop the server (SIGINT, SIGTERM, SIGHUP).
	// The first is passed on to the server; if the server is still
	// running KillAfter later, or when a second arrives, Run kills it.
	// Nil means none.
	Signals <-chan os.Signal
	// KillAfter is how long the server may take to exit after it was asked
	// to: by a signal passed on, or by SIGTERM when the client went away.
	// Zero means DefaultKillAfter.
	KillAfter time.Duration
	// Env is the server's environment; nil inherits ours.
	Env []string
	// Redact, when non-nil, rewrites what the capture records, on the
	// capture goroutine; the bytes relayed between the peers are never
	// touched. Nil records everything as received.
	Redact redact.Redactor
	// BeforeEnd, when non-nil, is called once after the server exited,
	// just before the end record; the records it returns (notes) are
	// written to the capture first. Nil adds nothing.
	BeforeEnd func() []capture.Record
	// OnCaptureError, when non-nil, is called once, from the capture
	// goroutine, when a write to Capture first fails (a full disk):
	// recording stops there, relaying goes on, and Run's error and a
	// capture-gap note account for what was lost. It must be quick. Nil
	// says nothing until Run returns.
	OnCaptureError func(error)
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
// server exits, and writes the capture. When the client goes away (a write
// to Options.Stdout fails, or the client closed Options.Stdin, the server
// still runs KillAfter later, and the system reports the other end of
// Options.Stdout closed), Run notes it, stops recording the server's
// output and stops the server as it would on a signal. It returns the
// server's exit status in Result. A non-nil error with a non-nil Result means the session ran
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
	l := newLife(t, p)
	var outs sync.WaitGroup
	outs.Add(2)
	go func() { defer outs.Done(); t.relayOut(p.stdout, t.stdout, streamS2C, l) }()
	go func() { defer outs.Done(); t.relayOut(p.stderr, t.stderr, streamStderr, l) }()
	go t.relayIn(t.stdin, p.stdin, l)
	go t.forwardSignals(l, l.done)

	waitErr := p.cmd.Wait()
	l.exit()
	t.drain(&outs, p)
	p.sys.release()
	res := t.result(p, l, waitErr)
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

// forwardSignals hands each signal from Options.Signals to l until done is
// closed.
func (t *tap) forwardSignals(l *life, done <-chan struct{}) {
	if t.opts.Signals == nil {
		return
	}
	for {
		select {
		case <-done:
			return
		case sig := <-t.opts.Signals:
			l.signal(sig)
		}
	}
}

// result notes how the server exited and returns it.
func (t *tap) result(p *process, l *life, waitErr error) *Result {
	res := &Result{}
	if p.cmd.ProcessState == nil {
		t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteRelayError, Text: fmt.Sprintf("waiting for server: %v", waitErr)})
		res.ExitCode = 1
	} else {
		res.ExitCode, res.Signal = exitStatus(p.cmd.ProcessState)
		t.note(exitNote(res, l))
	}
	return res
}
