package real_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	nethttp "net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/mcpgopeer"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// The clients: the TypeScript SDK v1, and v2 with versionNegotiation
// mode "legacy" (the plain 2025 handshake) or "auto" (server/discover
// first, then initialize if the server is a 2025 one).
const (
	tsV1       = "v1"
	tsV2Legacy = "v2-legacy"
	tsV2Auto   = "v2-auto"
)

// The servers.
const (
	everything  = "everything"    // @modelcontextprotocol/server-everything (TS SDK v1), 2025-11-25 only
	tsV2Server  = "ts-v2"         // testdata/server-v2.mjs, both eras
	goSDK       = "go-sdk"        // ../sdkpeer, 2026-07-28 tools
	goSDKLegacy = "go-sdk-legacy" // ../sdkpeer, 2025-11-25 only
	mcpGo       = "mcp-go"        // ../mcpgopeer, both eras
)

// The transports and eras.
const (
	stdio   = "stdio"
	http    = "http"
	forward = "forward" // mcptrail http --forward, the client's HTTP proxy
	modern  = "2026-07-28"
	legacy  = "2025-11-25"
)

// session is one recorded conversation of a client with a server.
type session struct {
	client, server, transport string
}

func (s session) name() string { return s.client + "/" + s.server + "/" + s.transport }

// era is the version the session must end up speaking: 2026-07-28 when
// an auto-negotiating client meets a server that offers it, else
// 2025-11-25.
func (s session) era() string {
	if (s.client == tsV2Auto || s.client == goModern) && s.server != everything && s.server != goSDKLegacy {
		return modern
	}
	return legacy
}

// report is what testdata/client.mjs prints.
type report struct {
	Tools      []string          `json:"tools"`
	ToolsAfter []string          `json:"toolsAfter"`
	Calls      map[string]string `json:"calls"`
	Progress   int               `json:"progress"`
	Cancelled  []string          `json:"cancelled"`
	ListChange int               `json:"listChanged"`
	Asked      []string          `json:"asked"`
}

// nodeDir returns a fresh directory holding the scripts of testdata and
// a node_modules link to the Node peers.
func nodeDir(t *testing.T) string {
	t.Helper()
	return testbin.NodeScripts(t, testbin.NodeModules(t), filepath.Join("testdata", "*.mjs"))
}

// childEnv is the environment of every process a test starts: HOME, the
// XDG directories and mcptrail's state directory all in dir, so nothing
// is written outside it.
func childEnv(dir string) []string {
	env := os.Environ()
	for _, kv := range [][2]string{
		{"HOME", "home"}, {"XDG_CONFIG_HOME", "config"}, {"XDG_CACHE_HOME", "cache"},
		{"XDG_STATE_HOME", "state"}, {"XDG_DATA_HOME", "data"}, {"MCPTRAIL_HOME", "mcptrail"},
	} {
		p := filepath.Join(dir, kv[1])
		_ = os.MkdirAll(p, 0o700)
		env = append(env, kv[0]+"="+p)
	}
	return env
}

// run records s through the real mcptrail binary and returns the
// directory of its captures (one per mcptrail process: a v2 "auto"
// client over stdio starts a sibling for its probe) and the client's
// report.
func (s session) run(t *testing.T) (string, report) {
	t.Helper()
	dir := nodeDir(t)
	caps := filepath.Join(dir, "captures")
	if err := os.Mkdir(caps, 0o700); err != nil {
		t.Fatal(err)
	}
	if s.client == goLegacy || s.client == goModern {
		return caps, s.runGo(t, dir, caps)
	}
	var args []string
	var tp *listener
	if s.transport == stdio {
		args = append([]string{"stdio", bins.mcptrail, "--capture", filepath.Join(caps, "{pid}.jsonl"), "--"}, s.stdioServer(dir)...)
	} else if s.transport == forward {
		target := s.httpServer(t, dir)
		tp = startListener(t, dir, listening, nil, bins.mcptrail, "http", "--forward", "--listen", "127.0.0.1:0",
			"--capture", filepath.Join(caps, "session.jsonl"))
		args = []string{"forward", target, "http://" + tp.addr}
	} else {
		target := s.httpServer(t, dir)
		tp = startListener(t, dir, listening, nil, bins.mcptrail, "http", "--listen", "127.0.0.1:0", "--target", target,
			"--capture", filepath.Join(caps, "session.jsonl"))
		args = []string{"http", "http://" + tp.addr + "/mcp"}
	}
	out := runNode(t, dir, append([]string{"client.mjs", s.client}, args...)...)
	if tp != nil {
		testbin.StopListener(t, tp.cmd, tp.stderr, tp.done)
	}
	var r report
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		t.Fatalf("client.mjs printed %q: %v", out, err)
	}
	return caps, r
}

// runGo records s with the go-sdk client.
func (s session) runGo(t *testing.T, dir, caps string) report {
	t.Helper()
	if s.transport == stdio {
		return s.playGo(t, dir, append([]string{"--capture", goCapture(caps), "--"}, s.stdioServer(dir)...), "")
	}
	target := s.httpServer(t, dir)
	tp := startListener(t, dir, listening, nil, bins.mcptrail, "http", "--listen", "127.0.0.1:0", "--target", target,
		"--capture", filepath.Join(caps, "session.jsonl"))
	r := s.playGo(t, dir, nil, "http://"+tp.addr+"/mcp")
	testbin.StopListener(t, tp.cmd, tp.stderr, tp.done)
	return r
}

// runNode runs `node args...` in dir and returns its standard output;
// it fails t, with stderr, when node fails.
func runNode(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Env = childEnv(dir)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// stdioServer is the command line of s's server over stdio.
func (s session) stdioServer(dir string) []string {
	switch s.server {
	case everything:
		return []string{"node", everythingJS(dir), "stdio"}
	case tsV2Server:
		return []string{"node", filepath.Join(dir, "server-v2.mjs"), "stdio"}
	case goSDKLegacy:
		return []string{bins.sdkserver, "-legacy"}
	case goSDK:
		return []string{bins.sdkserver}
	}
	return []string{bins.mcpgoserver}
}

func everythingJS(dir string) string {
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// httpServer starts s's server over Streamable HTTP for the length of t
// and returns its MCP endpoint: the Node servers as processes, the go-sdk
// and mcp-go ones in the test process (as ../peers serves them).
func (s session) httpServer(t *testing.T, dir string) string {
	t.Helper()
	var h nethttp.Handler
	switch s.server {
	case everything:
		port := strconv.Itoa(freePort(t))
		startListener(t, dir, everythingListening, []string{"PORT=" + port}, "node", everythingJS(dir), "streamableHttp")
		return "http://127.0.0.1:" + port + "/mcp"
	case tsV2Server:
		l := startListener(t, dir, v2Listening, nil, "node", filepath.Join(dir, "server-v2.mjs"), "http")
		return "http://" + l.addr + "/mcp"
	case mcpGo:
		h = mcpgopeer.NewHTTPHandler()
	default:
		srv := sdkpeer.NewServer(s.server == goSDKLegacy)
		h = mcp.NewStreamableHTTPHandler(func(*nethttp.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Stateless: s.server == goSDK})
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago,
// for a server that takes its port from the environment.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The lines the listeners print once they listen.
var (
	listening           = regexp.MustCompile(`listening on http://([^/\s]+)`)
	v2Listening         = regexp.MustCompile(`listening on http://(\S+)/mcp`)
	everythingListening = regexp.MustCompile(`listening on port (\d+)`)
)

// listener is a running process that serves HTTP.
type listener struct {
	cmd    *exec.Cmd
	addr   string
	stderr *testbin.Buffer
	done   chan error
}

// startListener starts `name args...` in dir, with env added to
// childEnv's, waits until it prints a
// line re matches and returns it with that line's submatch as its
// address; the process is killed when t ends unless stopped before.
func startListener(t *testing.T, dir string, re *regexp.Regexp, env []string, name string, args ...string) *listener {
	t.Helper()
	l := &listener{stderr: new(testbin.Buffer), done: make(chan error, 1)}
	l.cmd = exec.Command(name, args...)
	l.cmd.Dir = dir
	l.cmd.Env = append(childEnv(dir), env...)
	l.addr = testbin.StartListener(t, l.cmd, l.stderr, l.done, re)
	t.Cleanup(func() {
		_ = l.cmd.Process.Kill()
	})
	return l
}

// checkClean runs `mcptrail check --fail-on info` on the captures in
// caps and fails t unless the rule ids of its findings are exactly
// allowed (none, for correct traffic); it prints the findings when not.
func checkClean(t *testing.T, caps string, allowed []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, "check", "--fail-on", "info", "-T", "json", caps)
	cmd.Env = childEnv(t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var x struct {
		Results []struct {
			Path  string `json:"path"`
			Items []struct {
				Rule     string `json:"rule"`
				Severity string `json:"severity"`
				Seq      uint64 `json:"seq"`
				Message  string `json:"message"`
				Call     string `json:"call"`
			} `json:"items"`
		} `json:"results"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &x); jerr != nil || len(x.Results) == 0 {
		t.Fatalf("mcptrail check: %v; decoding its report: %v\nstdout:\n%s\nstderr:\n%s", err, jerr, stdout.Bytes(), stderr.Bytes())
	}
	var got []string
	var text bytes.Buffer
	for _, r := range x.Results {
		for _, it := range r.Items {
			if !slices.Contains(got, it.Rule) {
				got = append(got, it.Rule)
			}
			text.WriteString("  " + filepath.Base(r.Path) + ": " + it.Rule + " (" + it.Severity + ") seq " +
				strconv.FormatUint(it.Seq, 10) + " " + it.Call + ": " + it.Message + "\n")
		}
	}
	slices.Sort(got)
	want := slices.Clone(allowed)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("check --fail-on info: rules %v, want exactly %v (exit: %v); findings:\n%s", got, want, err, text.Bytes())
	}
	if len(want) == 0 && len(got) == 0 && err != nil {
		t.Errorf("check --fail-on info: %v, want exit 0\nstderr:\n%s", err, stderr.Bytes())
	}
}

// protocolVersions returns the protocol versions the exports of the
// captures in caps show, in order, without repeats.
func protocolVersions(t *testing.T, caps string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(caps, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no capture in %s: %v", caps, err)
	}
	var out []string
	for _, f := range files {
		cmd := exec.Command(bins.mcptrail, "export", "-T", "json", f)
		cmd.Env = childEnv(t.TempDir())
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcptrail export -T json %s: %v", f, err)
		}
		var x struct {
			Session struct {
				ProtocolVersions []string `json:"protocol_versions"`
			} `json:"session"`
		}
		if err := json.Unmarshal(b, &x); err != nil {
			t.Fatalf("decoding the export of %s: %v", f, err)
		}
		for _, v := range x.Session.ProtocolVersions {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}
