package sdk_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// handlerDelay is how long the client's elicitation handler "thinks" before
// answering: the human wait the store must measure.
const handlerDelay = 30 * time.Millisecond

// clientName and clientVersion identify the test client.
const (
	clientName    = "e2e-sdk-client"
	clientVersion = "1.2.3"
)

// newAnswerer is the test client's user: it thinks for handlerDelay,
// then answers with actions, in order.
func newAnswerer(actions ...string) *sdkpeer.Answerer {
	return sdkpeer.NewAnswerer(handlerDelay, actions...)
}

// launch is how the client starts mcptrail.
type launch string

const (
	// launchCommand is how a real stdio client does it: the SDK's
	// CommandTransport starts `mcptrail -- server` and, on Close, closes its
	// stdin and waits (SIGTERM only after TerminateDuration).
	launchCommand launch = "command-transport"
	// launchTee starts the process itself and tees the client's pipes, so
	// the test also knows the exact bytes the client wrote and read.
	launchTee launch = "teed-pipes"
)

// launches lists both ways, for tests that run once per way.
func launches() []launch { return []launch{launchCommand, launchTee} }

// runLaunches runs test as a parallel subtest for each of launches().
func runLaunches(t *testing.T, test func(*testing.T, launch)) {
	for _, l := range launches() {
		t.Run(string(l), func(t *testing.T) {
			t.Parallel()
			test(t, l)
		})
	}
}

// terminateAfter is the CommandTransport's TerminateDuration: a close that
// takes this long means mcptrail ignored its stdin closing.
const terminateAfter = 10 * time.Second

// proxied is an SDK client session talking to sdkserver through mcptrail.
// sdkserver -wire records the exact bytes the server read and wrote; with
// launchTee the client's side is recorded too.
type proxied struct {
	launch    launch
	cs        *mcp.ClientSession
	cmd       *exec.Cmd
	stderr    *testbin.Buffer
	dir       string
	capture   string
	clientOut *testbin.Buffer // what the client wrote to mcptrail's stdin (launchTee)
	clientIn  *testbin.Buffer // what the client read from mcptrail's stdout (launchTee)
}

// connectProxied starts `mcptrail --capture X -- sdkserver -wire DIR
// serverArgs...` the way l says and connects client to it at protocol
// version.
func connectProxied(ctx context.Context, t *testing.T, client *mcp.Client, l launch, version string, serverArgs ...string) *proxied {
	t.Helper()
	dir := t.TempDir()
	p := &proxied{launch: l, stderr: new(testbin.Buffer), dir: dir, capture: filepath.Join(dir, "session.jsonl")}
	args := append([]string{"--capture", p.capture, "--", bins.sdkserver, "-wire", dir}, serverArgs...)
	p.cmd = exec.Command(bins.mcptrail, args...)
	p.cmd.Stderr = p.stderr
	p.cmd.Env = append(p.cmd.Environ(), "MCPTRAIL_HOME="+dir)
	var transport mcp.Transport
	switch l {
	case launchCommand:
		transport = &mcp.CommandTransport{Command: p.cmd, TerminateDuration: terminateAfter}
	case launchTee:
		transport = p.startTeed(t)
	default:
		t.Fatalf("unknown launch %q", l)
	}
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
		t.Fatalf("connecting through mcptrail at %s: %v\nmcptrail stderr:\n%s", version, err, p.stderr.Bytes())
	}
	p.cs = cs
	return p
}

// startTeed starts mcptrail with teed pipes and returns the client's
// transport over them.
func (p *proxied) startTeed(t *testing.T) mcp.Transport {
	t.Helper()
	p.clientOut, p.clientIn = new(testbin.Buffer), new(testbin.Buffer)
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &mcp.IOTransport{
		Reader: readCloser{io.TeeReader(stdout, p.clientIn), stdout},
		Writer: writeCloser{io.MultiWriter(stdin, p.clientOut), stdin},
	}
}

// readCloser and writeCloser give a tee a Close method.
type readCloser struct {
	io.Reader
	io.Closer
}

type writeCloser struct {
	io.Writer
	io.Closer
}

// close ends the session the way a stdio client does (closing mcptrail's
// stdin), checks that mcptrail exited promptly and cleanly with the
// server's status and passed its stderr through, and that both peers saw
// the same bytes.
func (p *proxied) close(t *testing.T) {
	t.Helper()
	start := time.Now()
	if p.launch == launchCommand {
		// CommandTransport's Close closes stdin and returns the exit status.
		if err := p.cs.Close(); err != nil {
			t.Errorf("closing the session: mcptrail exited with %v, want status 0\nstderr:\n%s", err, p.stderr.Bytes())
		}
		if d := time.Since(start); d >= terminateAfter {
			t.Errorf("mcptrail took %v to exit after its stdin closed; the SDK had to signal it", d)
		}
	} else {
		p.waitTeed(t)
	}
	if !bytes.Contains(p.stderr.Bytes(), []byte("sdkserver: ready")) {
		t.Errorf("the server's stderr did not pass through mcptrail; stderr:\n%s", p.stderr.Bytes())
	}
	p.checkWire(t)
}

// waitTeed closes a launchTee session and waits for mcptrail to exit.
func (p *proxied) waitTeed(t *testing.T) {
	t.Helper()
	if err := p.cs.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcptrail exited with %v, want status 0\nstderr:\n%s", err, p.stderr.Bytes())
		}
	case <-time.After(terminateAfter):
		_ = p.cmd.Process.Kill()
		<-done
		t.Fatalf("mcptrail did not exit within %v of its stdin closing\nstderr:\n%s", terminateAfter, p.stderr.Bytes())
	}
}

// wirePair is two byte streams that must be identical.
type wirePair struct {
	name string
	a, b []byte
}

// checkWire checks byte transparency between real peers: what one side
// wrote is what the capture holds and what the other side read. The
// server's side is always recorded; the client's only with launchTee.
func (p *proxied) checkWire(t *testing.T) {
	t.Helper()
	c2s, s2c := captureStreams(t, p.capture)
	serverIn := readFile(t, filepath.Join(p.dir, "server-in"))
	serverOut := readFile(t, filepath.Join(p.dir, "server-out"))
	pairs := []wirePair{
		{"client→server: the capture vs what the server read", c2s, serverIn},
		{"server→client: what the server wrote vs the capture", serverOut, s2c},
	}
	if p.launch == launchTee {
		pairs = append(pairs,
			wirePair{"client→server: what the client wrote vs what the server read", p.clientOut.Bytes(), serverIn},
			wirePair{"server→client: what the server wrote vs what the client read", serverOut, p.clientIn.Bytes()})
	}
	for _, w := range pairs {
		if len(w.a) == 0 {
			t.Errorf("%s: nothing", w.name)
		}
		if !bytes.Equal(w.a, w.b) {
			t.Errorf("%s: %d and %d bytes, not identical:\n%q\n%q", w.name, len(w.a), len(w.b), head(w.a, 2000), head(w.b, 2000))
		}
	}
}

// captureStreams rebuilds each direction's byte stream from the capture's
// frame records (Record.Bytes plus the newline unless NoEOL).
func captureStreams(t *testing.T, path string) (c2s, s2c []byte) {
	var tail []string // the other records, described
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatalf("opening the capture: %v", err)
	}
	for {
		var rec capture.Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading the capture: %v", err)
		}
		if rec.Type != capture.TypeFrame {
			tail = append(tail, describeRecord(&rec))
			continue
		}
		b := append(rec.Bytes(), '\n')
		if rec.NoEOL {
			b = b[:len(b)-1]
		}
		if rec.Dir == capture.C2S {
			c2s = append(c2s, b...)
		} else {
			s2c = append(s2c, b...)
		}
	}
	if d := r.Damage(); d.Torn || d.Corrupt != 0 {
		t.Errorf("capture damage %+v after a clean exit", d)
	}
	// After a clean close the tap saw the client close, then the server
	// exit, and ended the capture; nothing else (no relay error, no signal).
	want := []string{"stderr sdkserver: ready", "note client-closed", "note server-exit exit=0", "end"}
	if diff := cmp.Diff(want, tail); diff != "" {
		t.Errorf("the capture's stderr, note and end records (-want +got):\n%s", diff)
	}
	return c2s, s2c
}

// describeRecord describes a non-frame record in a few words.
func describeRecord(r *capture.Record) string {
	s := string(r.Type)
	switch r.Type {
	case capture.TypeStderr:
		s += " " + string(r.Bytes())
	case capture.TypeNote:
		s += " " + r.Note
		if r.Exit != nil {
			s += fmt.Sprintf(" exit=%d", *r.Exit)
		}
		if r.Signal != "" {
			s += " signal=" + r.Signal
		}
		if r.Text != "" {
			s += ": " + r.Text
		}
	}
	return s
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// callTool calls a tool and returns its text and isError.
func (p *proxied) callTool(ctx context.Context, t *testing.T, name string) (string, bool) {
	t.Helper()
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: name})
	if err != nil {
		t.Fatalf("calling %s through mcptrail: %v\nmcptrail stderr:\n%s", name, err, p.stderr.Bytes())
	}
	if res.NeedsInput() {
		t.Fatalf("calling %s: the result still needs input after the SDK's retries", name)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError
}
