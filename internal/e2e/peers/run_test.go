//lint:file-ignore SA1019 the legacy era's features (sampling, logging, ping, the GET stream) are deprecated in 2026-07-28, and the tests drive them on purpose

package peers_test

import (
	"context"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/mcpgopeer"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// run plays s through the real mcptrail binary and returns the capture's
// path once mcptrail has exited.
func (s session) run(ctx context.Context, t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	capture := filepath.Join(dir, "session.jsonl")
	var c peerClient
	var err error
	var tp *tap
	stderr := new(testbin.Buffer) // mcptrail's, over stdio
	if s.transport == stdio {
		c, err = s.connectStdio(ctx, dir, capture, stderr)
	} else {
		tp = startTap(t, dir, capture, s.httpServer(t))
		stderr = tp.stderr
		c, err = s.connectHTTP(ctx, tp.url("/mcp"))
	}
	if err != nil {
		if tp != nil {
			tp.stop(t)
		}
		t.Fatalf("%v\nmcptrail stderr:\n%s", err, stderr.Bytes())
	}
	s.play(ctx, t, c)
	if err := c.close(); err != nil {
		t.Errorf("closing the client (stdio: mcptrail's exit status): %v\nmcptrail stderr:\n%s", err, stderr.Bytes())
	}
	if tp != nil {
		tp.stop(t)
	}
	if r, ok := c.(interface{ received() []string }); ok {
		checkReceived(t, capture, r.received())
	}
	return capture
}

// serverArgs is the stdio server's command line.
func (s session) serverArgs() []string {
	if s.server == mcpGo {
		return []string{bins.mcpgoserver}
	}
	if s.version == legacy {
		return []string{bins.sdkserver, "-legacy"}
	}
	return []string{bins.sdkserver}
}

// clientVersion is the version the client asks for ("" when it probes).
func (s session) clientVersion() string {
	if s.probe {
		return ""
	}
	return s.version
}

// connectStdio starts `mcptrail --capture capture -- SERVER` under the
// client SDK's own stdio transport, mcptrail's stderr going to stderr.
//
// The mcp-go transport gets the command from a factory that sets its
// Stderr, so that a failing test can show mcptrail's stderr. (By default
// mcp-go reads it through a pipe that Close closes before the process has
// exited; the stdio tap stops relaying stderr quietly on that EPIPE, see
// internal/tap/stdio TestRunStderrReaderGone.)
func (s session) connectStdio(ctx context.Context, home, capture string, stderr io.Writer) (peerClient, error) {
	args := append([]string{"--capture", capture, "--"}, s.serverArgs()...)
	env := []string{"MCPTRAIL_HOME=" + home}
	if s.client == mcpGo {
		tr := transport.NewStdioWithOptions(bins.mcptrail, env, args, transport.WithCommandFunc(
			func(_ context.Context, command string, env, args []string) (*exec.Cmd, error) {
				cmd := exec.Command(command, args...)
				cmd.Env = append(cmd.Environ(), env...)
				cmd.Stderr = stderr
				return cmd, nil
			}))
		return connectMcpgo(ctx, tr, s.clientVersion())
	}
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(cmd.Environ(), env...)
	cmd.Stderr = stderr
	return connectSDK(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, s.clientVersion())
}

func (s session) connectHTTP(ctx context.Context, url string) (peerClient, error) {
	if s.client == mcpGo {
		var opts []transport.StreamableHTTPCOption
		if s.version == legacy && !s.probe {
			// mcp-go's legacy server bridge sends the second of two
			// concurrent server-initiated requests on the GET stream, so
			// the client must open it (without it the call hangs: the
			// sampling request never reaches the client).
			opts = append(opts, transport.WithContinuousListening())
		}
		tr, err := transport.NewStreamableHTTP(url, opts...)
		if err != nil {
			return nil, err
		}
		return connectMcpgo(ctx, tr, s.clientVersion())
	}
	return connectSDK(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, s.clientVersion())
}

// httpServer serves s's server SDK over Streamable HTTP in the test
// process and returns its MCP endpoint. The go-sdk server is stateless
// in the modern era, as the 2026-07-28 transport is.
func (s session) httpServer(t *testing.T) string {
	t.Helper()
	var h nethttp.Handler
	if s.server == mcpGo {
		h = mcpgopeer.NewHTTPHandler()
	} else {
		srv := sdkpeer.NewServer(s.version == legacy)
		h = mcp.NewStreamableHTTPHandler(func(*nethttp.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Stateless: s.version != legacy})
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// tap is a running `mcptrail http`.
type tap struct {
	cmd    *exec.Cmd
	addr   string
	stderr *testbin.Buffer
	done   chan error
}

// listening matches the line mcptrail http prints once it listens.
var listening = regexp.MustCompile(`listening on http://(\S+)/`)

// startTap runs `mcptrail http --listen 127.0.0.1:0 --target target
// --capture capture` with MCPTRAIL_HOME=home and waits until it listens.
func startTap(t *testing.T, home, capture, target string) *tap {
	t.Helper()
	tp := &tap{stderr: new(testbin.Buffer), done: make(chan error, 1)}
	tp.cmd = exec.Command(bins.mcptrail, "http", "--listen", "127.0.0.1:0", "--target", target, "--capture", capture)
	tp.cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	tp.addr = testbin.StartListener(t, tp.cmd, tp.stderr, tp.done, listening)
	return tp
}

func (tp *tap) url(path string) string { return "http://" + tp.addr + path }

// stop sends SIGINT and waits for a clean exit.
func (tp *tap) stop(t *testing.T) {
	t.Helper()
	testbin.StopListener(t, tp.cmd, tp.stderr, tp.done)
}
