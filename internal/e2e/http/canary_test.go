package http_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// startTapHome runs `mcptrail http --listen 127.0.0.1:0 --target target
// extra...` with MCPTRAIL_HOME=home and no --capture, so the capture goes
// to the sessions directory under a name mcptrail derives, and waits until
// it listens.
func startTapHome(t *testing.T, home, target string, extra ...string) *tap {
	t.Helper()
	args := append([]string{"http", "--listen", "127.0.0.1:0", "--target", target}, extra...)
	return launchTap(t, &tap{}, home, t.TempDir(), args)
}

// runIn runs mcptrail with MCPTRAIL_HOME=home and returns its stdout and
// stderr together; it must exit 0.
func runIn(t *testing.T, home string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	cmd.Dir = home
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail %q: %v\n%s", args, err, out.Bytes())
	}
	return out.String()
}

// checkHome fails when a file name under home, a file's contents (with
// contents set), `sessions` or an export of the newest session (with extra
// flags) holds the canary.
func checkHome(t *testing.T, home, canary string, contents bool, extra ...string) {
	t.Helper()
	testbin.NoCanaryInDir(t, home, canary, contents)
	for _, args := range [][]string{
		{"sessions"}, {"sessions", "--json"},
		{"export", "-T", "json"}, {"export", "-T", "text"}, {"export", "-T", "events"}, {"export", "-T", "otlp"},
	} {
		args = append(args, extra...)
		testbin.NoCanary(t, canary, strings.Join(args, " "), runIn(t, home, args...))
	}
}

// TestCanaryHTTP: a secret in the target's query and in an Mcp-Param-*
// header whose name is a key never reaches the capture, mcptrail's
// stderr, the events file, `sessions` or any export, on write
// (--redact-secrets) or on read; the target still gets every byte, and
// its query goes to the MCP endpoint only, not to /.well-known paths.
func TestCanaryHTTP(t *testing.T) {
	t.Parallel()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	c := "cnry" + hex.EncodeToString(b)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"api_key":"` + c + `b1"}}}`
	var mu sync.Mutex
	queries := map[string]string{}
	params := map[string]string{}
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		queries[r.URL.Path] = r.URL.RawQuery
		params[r.URL.Path] = r.Header.Get("Mcp-Param-Api-Key")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	}))
	defer target.Close()
	targetURL := target.URL + "/mcp?apikey=" + c + "q1&v=1"

	run := func(t *testing.T, home string, flags ...string) *tap {
		tp := startTapHome(t, home, targetURL, flags...)
		req, err := http.NewRequest("POST", tp.url("/mcp"), strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Param-Api-Key", c+"h1")
		for _, r := range []*http.Request{req, mustGet(t, tp.url("/.well-known/oauth-protected-resource"))} {
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		tp.stop(t)
		mu.Lock()
		defer mu.Unlock()
		if got, want := queries["/mcp"], "apikey="+c+"q1&v=1"; got != want {
			t.Errorf("the endpoint got query %q, want the target's %q", got, want)
		}
		if got := queries["/.well-known/oauth-protected-resource"]; got != "" {
			t.Errorf("/.well-known got the target's query %q", got)
		}
		if got := params["/mcp"]; got != c+"h1" {
			t.Errorf("the target got Mcp-Param-Api-Key %q, want the client's", got)
		}
		return tp
	}
	t.Run("on write", func(t *testing.T) {
		home := t.TempDir()
		ev := filepath.Join(t.TempDir(), "events.jsonl")
		tp := run(t, home, "--redact-secrets", "--events-file", ev, "--events-content")
		testbin.NoCanary(t, c, "mcptrail's stderr", tp.stderr.String())
		if !strings.Contains(tp.stderr.String(), "apikey=[REDACTED]&v=1") {
			t.Errorf("the startup line does not show the scrubbed target: %s", tp.stderr.String())
		}
		data, err := os.ReadFile(ev)
		if err != nil {
			t.Fatal(err)
		}
		testbin.NoCanary(t, c, "the events file", string(data))
		checkHome(t, home, c, true)
	})
	t.Run("on read", func(t *testing.T) {
		home := t.TempDir()
		run(t, home)
		checkHome(t, home, c, false, "--redact-secrets")
	})
}

func mustGet(t *testing.T, url string) *http.Request {
	t.Helper()
	r, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
