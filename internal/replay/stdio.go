package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
)

// Options configures a replay. Nil Options use the defaults.
type Options struct {
	// Command is the server to start (argv); required by Stdio.
	Command []string
	// Target is the server's Streamable HTTP endpoint; required by HTTP.
	Target *url.URL
	// Capture receives the new capture; nil writes none.
	Capture io.Writer
	// SpoolDir is where a huge frame waits while it is recorded; "" uses
	// the system's temporary directory.
	SpoolDir string
	// Header is the new capture's session record (the tap fills in the
	// transport, command and time).
	Header capture.Record
	// Now is the clock; nil uses time.Now.
	Now func() time.Time
	// Timeout bounds the wait for each answer of the server; zero means
	// DefaultTimeout.
	Timeout time.Duration
	// Stderr receives the server's stderr (Stdio); nil discards it.
	Stderr io.Writer
	// KillAfter is how long the server may take to exit once the replay
	// is done (its stdin closed), and then after the SIGTERM that follows,
	// before it is killed, as the proxy gives a server whose client went
	// away (the tap's escalation); zero means stdio.DefaultKillAfter.
	// Stdio only.
	KillAfter time.Duration
	// RequestHeader holds headers every HTTP request to the target carries
	// (auth, such as Authorization: Bearer ...); nil adds none. They pass
	// the tap as a client's would, so the new capture keeps them as it
	// keeps any client's: Authorization as its scheme only, Cookie as its
	// presence, most others not at all. A header the transport sets itself
	// (Content-Type, Mcp-Method ...) wins over one here. Stdio ignores it.
	RequestHeader http.Header
}

// Stdio starts the server through the stdio tap and sends it p. It returns
// when the server has exited (asked to when the replay is done, killed
// when it does not stop) and every goroutine it started has ended. The
// error says why the replay stopped early (errors.Is ErrTimeout or
// ErrServerGone); the Result says what was sent until then. A nil Result
// means the server could not be started (the error says why).
func Stdio(ctx context.Context, p *Plan, opts *Options) (*Result, error) {
	if opts == nil || len(opts.Command) == 0 {
		return nil, stdio.ErrNoCommand
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	killAfter := opts.KillAfter
	if killAfter <= 0 {
		killAfter = stdio.DefaultKillAfter
	}
	start := time.Now()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	sigs := make(chan os.Signal, 2)
	topts := &stdio.Options{
		Command: opts.Command,
		Stdin:   inR, Stdout: outW, Stderr: opts.Stderr,
		Capture: opts.Capture, SpoolDir: opts.SpoolDir,
		Header: opts.Header, Now: opts.Now,
		Signals: sigs, KillAfter: killAfter,
	}
	if topts.Stderr == nil {
		topts.Stderr = io.Discard
	}
	type tapEnd struct {
		res *stdio.Result
		err error
	}
	ended := make(chan tapEnd, 1)
	go func() {
		res, err := stdio.Run(ctx, topts)
		outW.Close()
		// Nobody reads the server's input any more: a write fails now.
		inR.CloseWithError(ErrServerGone)
		ended <- tapEnd{res, err}
	}()
	c := newConn(inW, outR)
	d := &driver{c: c, timeout: timeout}
	driveErr := d.run(p)
	if driveErr == nil {
		d.settle(p, start)
	}
	c.stop()
	inW.Close() // EOF on the server's stdin: an MCP server exits
	// A server that hung gets SIGTERM at once, one that is done killAfter
	// to exit, as the proxy gives a server whose client went away; the
	// tap kills it killAfter after the signal.
	grace := killAfter
	if errors.Is(driveErr, ErrTimeout) {
		grace = 0
	}
	stop := time.NewTimer(grace)
	var end tapEnd
	select {
	case end = <-ended:
	case <-stop.C:
		sigs <- syscall.SIGTERM
		end = <-ended
	}
	stop.Stop()
	c.wait()
	return finish(&d.res, driveErr, end.res, end.err)
}

// finish picks the error a replay reports: a server that could not start,
// then why driving stopped, then a capture problem.
func finish(res *Result, driveErr error, tapRes *stdio.Result, tapErr error) (*Result, error) {
	if tapRes == nil && tapErr != nil {
		return nil, tapErr
	}
	if driveErr != nil && errors.Is(driveErr, ErrServerGone) && tapRes != nil {
		driveErr = fmt.Errorf("%w (it exited with %s)", driveErr, exitText(tapRes))
	}
	if driveErr != nil {
		return res, driveErr
	}
	if tapErr != nil {
		return res, fmt.Errorf("writing the new capture: %w", tapErr)
	}
	return res, nil
}

func exitText(r *stdio.Result) string {
	if r.Signal != "" {
		return "signal " + r.Signal
	}
	return fmt.Sprintf("status %d", r.ExitCode)
}
