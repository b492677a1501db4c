package oauth_test

import (
	"bytes"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestForward: each real client, unchanged apart from its proxy setting,
// completes the OAuth flow and calls the tool through the real `mcptrail
// http --forward`, for an http origin and for an https origin with
// --intercept (the client trusting mcptrail's CA, mcptrail trusting the
// server's); the capture holds the whole chain, and no secret the flow
// carried (codes, tokens, client secrets, code_verifiers) appears in the
// capture, any export, the events or mcptrail's stderr.
func TestForward(t *testing.T) {
	requireForward(t)
	dir := scripts(t)
	for _, tls := range []bool{false, true} {
		for _, c := range clients() {
			name := c.name + "/http"
			if tls {
				name = c.name + "/https-intercept"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv, direct := newServer(t, tls)
				fw := startForward(t, srv, direct.caFile)
				r := route{proxy: fw.proxy}
				if tls {
					r.caFile = fw.caPath(t)
				}
				got := c.run(t, dir, srv.URL(), r)
				checkFlow(t, srv, got)
				fw.stop(t)
				checkChain(t, fw, srv, tls)
				secrets := srv.Observed().Secrets()
				if len(secrets) == 0 {
					t.Fatal("the flow carried no secret to look for")
				}
				checkNoSecrets(t, fw, secrets)
			})
		}
	}
}

// requireForward skips t until the binary has `mcptrail http --forward`
// (issue 14 item 1).
func requireForward(t *testing.T) {
	t.Helper()
	out, err := exec.Command(env.mcptrail, "http", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("mcptrail http --help: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--forward")) {
		t.Skip("mcptrail http has no --forward flag yet (issue 14 item 1); this test runs once it does")
	}
}

// forwardTap is a running `mcptrail http --forward`.
type forwardTap struct {
	cmd     *exec.Cmd
	home    string // MCPTRAIL_HOME: the state dir, CA included
	capture string
	proxy   string // http://host:port, for the clients' proxy setting
	stderr  *testbin.Buffer
	done    chan error
	// intercept is the host given to --intercept, "" for none.
	intercept string
}

// proxyListening matches the line mcptrail prints once it listens.
var proxyListening = regexp.MustCompile(`listening on http://([^/\s]+)`)

// startForward runs `mcptrail http --forward --listen 127.0.0.1:0
// --capture HOME/session.jsonl`, with `--intercept HOST` for an https
// server, trusting upstreamCA (a PEM file, "" for the system roots) for
// upstream connections, and waits until it listens. This is the one place
// that knows the flags and the listening line.
func startForward(t *testing.T, srv *oauthserver.Server, upstreamCA string) *forwardTap {
	t.Helper()
	home := t.TempDir()
	fw := &forwardTap{home: home, capture: filepath.Join(home, "session.jsonl"), stderr: new(testbin.Buffer), done: make(chan error, 1)}
	args := []string{"http", "--forward", "--listen", "127.0.0.1:0", "--capture", fw.capture}
	if upstreamCA != "" {
		u, err := url.Parse(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		fw.intercept = u.Hostname()
		args = append(args, "--intercept", fw.intercept)
	}
	fw.cmd = exec.Command(env.mcptrail, args...)
	fw.cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	if upstreamCA != "" {
		fw.cmd.Env = append(fw.cmd.Env, "SSL_CERT_FILE="+upstreamCA)
	}
	fw.cmd.Dir = home
	addr := fw.start(t)
	fw.proxy = "http://" + addr
	return fw
}

// start starts the process and returns the address it listens on; the
// process is killed at cleanup if still running.
func (fw *forwardTap) start(t *testing.T) string {
	t.Helper()
	t.Cleanup(func() {
		if fw.cmd.ProcessState == nil {
			_ = fw.cmd.Process.Kill()
			<-fw.done
		}
	})
	return testbin.StartListener(t, fw.cmd, fw.stderr, fw.done, proxyListening)
}

// caPath returns the CA certificate file `mcptrail ca --path --intercept
// HOST` names: the CA of the intercepted host, constrained to it.
func (fw *forwardTap) caPath(t *testing.T) string {
	t.Helper()
	out := fw.run(t, "ca", "--path", "--intercept", fw.intercept)
	p := strings.TrimSpace(out)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("mcptrail ca --path printed %q: %v", out, err)
	}
	return p
}

// run runs mcptrail args with the tap's state dir and returns its stdout;
// it must exit 0. Its stderr joins the tap's, for the secret checks.
func (fw *forwardTap) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(env.mcptrail, args...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+fw.home)
	cmd.Dir = fw.home
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	fw.stderr.Write(stderr.Bytes())
	if err != nil {
		t.Fatalf("mcptrail %q: %v\n%s", args, err, stderr.Bytes())
	}
	return stdout.String()
}

// stop sends SIGINT and waits for a clean exit.
func (fw *forwardTap) stop(t *testing.T) {
	t.Helper()
	testbin.StopListener(t, fw.cmd, fw.stderr, fw.done)
}
