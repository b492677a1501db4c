package replay_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// httpEras are the eras replayed over Streamable HTTP: the 2026-07-28
// server is stateless, the 2025-11-25 one keeps a session and asks its
// question on the call's SSE stream.
var httpEras = []struct {
	name    string
	legacy  bool
	version string
	tools   []string
}{
	{"modern", false, "2026-07-28", []string{"confirm", "chained"}},
	{"legacy", true, "2025-11-25", []string{"book"}},
}

// serveHTTP serves sdkpeer's server of the era (changed by variant, ""
// for none) with the go-sdk's Streamable HTTP handler in this process and
// returns its endpoint URL; the server is closed at cleanup.
func serveHTTP(t *testing.T, legacy bool, variant string) string {
	t.Helper()
	srv := sdkpeer.NewServer(legacy)
	if err := sdkpeer.ApplyVariant(srv, legacy, variant); err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: !legacy})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// listening matches the line mcptrail http prints once it listens.
var listening = regexp.MustCompile(`listening on http://(\S+)/`)

// recordHTTP records a go-sdk client session of the era with the server
// at target through `mcptrail http --target` and returns the capture.
func recordHTTP(t *testing.T, target string, legacy bool, version string, tools []string) string {
	t.Helper()
	calls := make([]*mcp.CallToolParams, len(tools))
	for i, tool := range tools {
		calls[i] = &mcp.CallToolParams{Name: tool}
	}
	return recordHTTPCalls(t, target, version, calls)
}

// recordHTTPCalls is recordHTTP with the calls (and their arguments)
// given.
func recordHTTPCalls(t *testing.T, target, version string, calls []*mcp.CallToolParams) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "http.jsonl")
	cmd := exec.Command(bins.mcptrail, "http", "--listen", "127.0.0.1:0", "--target", target, "--capture", path)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+dir)
	stderr, done := new(testbin.Buffer), make(chan error, 1)
	addr := testbin.StartListener(t, cmd, stderr, done, listening)
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "replay-e2e-client", Version: "1.0.0"},
		&mcp.ClientOptions{ElicitationHandler: accept})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting over HTTP at %s: %v\n%s", version, err, stderr.Bytes())
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("listing tools: %v", err)
	}
	for _, call := range calls {
		res, err := cs.CallTool(ctx, call)
		if err != nil || res.IsError {
			t.Fatalf("calling %s: %v %+v", call.Name, err, res)
		}
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v", err)
	}
	testbin.StopListener(t, cmd, stderr, done)
	return path
}

// TestReplayHTTPSameServer records each era's session over HTTP and
// replays it with --target against the same server: exit 0, nothing on
// stdout, and a new capture written by the HTTP tap.
func TestReplayHTTPSameServer(t *testing.T) {
	t.Parallel()
	for _, era := range httpEras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			target := serveHTTP(t, era.legacy, "")
			rec := recordHTTP(t, target, era.legacy, era.version, era.tools)
			o := runReplay(t, rec, "--slower-than", "0", "--allow-destructive", "--target", target)
			if o.code != 0 || o.stdout != "" {
				t.Fatalf("replay exited %d with this on stdout, want 0 and nothing\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			head, err := os.ReadFile(o.capture)
			if err != nil {
				t.Fatalf("the new capture: %v\nstderr:\n%s", err, o.stderr)
			}
			if !strings.Contains(string(head), `"transport":"http"`) {
				t.Errorf("the new capture was not written by the HTTP tap:\n%.400s", head)
			}
		})
	}
}

// TestReplayHTTPVariant replays each era's HTTP recording against
// variants of the server (sdkpeer.ApplyVariant): a tool's result changed,
// a tool that now errors, a question with an extra field. Each difference
// is printed with its path or what changed, and replay exits 1.
func TestReplayHTTPVariant(t *testing.T) {
	t.Parallel()
	cases := []struct {
		variant        string
		modern, legacy []string // lines stdout must hold
	}{{
		variant: sdkpeer.VariantChanged,
		modern:  []string{`tools/call[confirm]`, `result /content/0/text changed: "confirm: accepted" -> "confirm: approved"`},
		legacy:  []string{`tools/call[book]`, `result /content/0/text changed: "guests: accepted" -> "guests: approved"`},
	}, {
		variant: sdkpeer.VariantError,
		modern:  []string{`error appeared: -32603 confirm: the service is down`, `rounds 2 -> 1`, `tools/call[confirm] key "confirm" removed: "Proceed?"`},
		legacy:  []string{`error appeared: -32603 book: the service is down`, `tools/call[book] removed: "How many guests?"`},
	}, {
		variant: sdkpeer.VariantExtraField,
		modern:  []string{`tools/call[confirm] key "confirm" changed: "Proceed?"`, `field-added note: "string"`},
		legacy:  []string{`tools/call[book] changed: "How many guests?"`, `field-added note: "string"`},
	}}
	for _, era := range httpEras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			rec := recordHTTP(t, serveHTTP(t, era.legacy, ""), era.legacy, era.version, era.tools)
			for _, tc := range cases {
				t.Run(tc.variant, func(t *testing.T) {
					t.Parallel()
					o := runReplay(t, rec, "--slower-than", "0", "--allow-destructive", "--target", serveHTTP(t, era.legacy, tc.variant))
					if o.code != 1 {
						t.Errorf("replay exited %d, want 1\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
					}
					want := tc.modern
					if era.legacy {
						want = tc.legacy
					}
					for _, w := range want {
						if !strings.Contains(o.stdout, w) {
							t.Errorf("stdout lacks %q\nstdout:\n%s\nstderr:\n%s", w, o.stdout, o.stderr)
						}
					}
				})
			}
		})
	}
}

// TestReplayHTTPUnreachable replays against a port nobody listens on: a
// clear error naming the refused connection, exit 1, quickly.
func TestReplayHTTPUnreachable(t *testing.T) {
	t.Parallel()
	era := httpEras[0]
	rec := recordHTTP(t, serveHTTP(t, era.legacy, ""), era.legacy, era.version, era.tools)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/mcp"
	ln.Close() // nobody listens there now
	o := runReplay(t, rec, "--timeout", "20s", "--target", dead)
	if o.code != 1 {
		t.Errorf("replay exited %d, want 1\nstderr:\n%s", o.code, o.stderr)
	}
	if !strings.Contains(o.stderr, "cannot reach the server") || !strings.Contains(o.stderr, "connection refused") {
		t.Errorf("stderr does not say the server cannot be reached and why:\n%s", o.stderr)
	}
	if o.duration > 15*time.Second {
		t.Errorf("replay took %v to give up on a refused connection", o.duration)
	}
}
