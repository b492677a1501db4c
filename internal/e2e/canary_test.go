package e2e_test

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// newCanary returns a string nothing else in a run contains.
func newCanary(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "cnry" + hex.EncodeToString(b)
}

// mcptrailOut runs mcptrail with env and args, requires exit 0, and
// returns its stdout and stderr together.
func mcptrailOut(t *testing.T, env []string, args ...string) string {
	t.Helper()
	out, errOut, code := runProxy(t, env, "", args...)
	if code != 0 {
		t.Fatalf("mcptrail %q exited %d: %s", args, code, errOut)
	}
	return out + errOut
}

// checkViews runs every command that shows the newest session of the
// state dir home (sessions, every export format, the ledger) with extra
// flags and fails when one shows the canary.
func checkViews(t *testing.T, home, canary string, extra ...string) {
	t.Helper()
	env := []string{"MCPTRAIL_HOME=" + home}
	for _, args := range [][]string{
		{"sessions"}, {"sessions", "--json"},
		{"export"}, {"export", "-T", "json"}, {"export", "-T", "text"}, {"export", "-T", "events"}, {"export", "-T", "otlp"},
		{"ledger", "--all"}, {"ledger", "--all", "--json"},
	} {
		args = append(args, extra...)
		testbin.NoCanary(t, canary, strings.Join(args, " "), mcptrailOut(t, env, args...))
	}
}

// checkStateDir fails when a file name or file under home holds the
// canary.
func checkStateDir(t *testing.T, home, canary string) {
	t.Helper()
	testbin.NoCanaryInDir(t, home, canary, true)
}

// TestCanaryArgv: a secret on the server's command line, inside an
// `sh -c` string (--token X, --api-key=X, --token=X, NAME=X, a URL's
// password and secret query parameters), and secrets the server prints on
// stderr or the client sends as text (password=X, Authorization: Bearer
// X, Cookie), never reach the capture, its file name, the events file,
// mcptrail's own messages, `sessions` or any export: under
// --redact-secrets on write, and with --redact-secrets on read of a
// capture recorded without it.
func TestCanaryArgv(t *testing.T) {
	t.Parallel()
	c := newCanary(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	// A stand-in for node: it prints secrets on stderr and echoes stdin.
	node := "#!/bin/sh\necho \"boot password=" + c + "e1 Authorization: Bearer " + c + "e2 Cookie: sid=" + c + "e3\" >&2\nexec cat\n"
	if err := os.WriteFile(filepath.Join(bin, "node"), []byte(node), 0o700); err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{
		"reproducer": "node --token " + c + "a1 x.js",
		"every form": "API_KEY=" + c + "a0 node --token " + c + "a1 x.js --api-key=" + c + "a2 --token=" + c + "a3 'https://ann:" + c + "a4@h.example/mcp?token=" + c + "a5&apikey=" + c + "a6'",
	}
	stdin := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json: password=" + c + "t1 Authorization: Basic " + c + "t2\n"
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	for name, script := range scripts {
		t.Run(name+" on write", func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			events := filepath.Join(t.TempDir(), "events.jsonl")
			out, errOut, code := runProxy(t, []string{path, "MCPTRAIL_HOME=" + home}, stdin,
				"--redact-secrets", "--events-file", events, "--", "sh", "-c", script)
			if code != 0 || out != stdin {
				t.Fatalf("exit %d, client got %q; stderr %s", code, out, errOut)
			}
			// The server's stderr is relayed as is: only mcptrail's own lines
			// must not name the argv secrets.
			testbin.NoCanary(t, c+"a", "mcptrail's stderr", errOut)
			checkStateDir(t, home, c)
			ev, err := os.ReadFile(events)
			if err != nil {
				t.Fatal(err)
			}
			testbin.NoCanary(t, c, "the events file", string(ev))
			checkViews(t, home, c)
			if got := mcptrailOut(t, []string{"MCPTRAIL_HOME=" + home}, "sessions", "--json"); !strings.Contains(got, `"label":"x"`) {
				t.Errorf("the label is not the script's name: %s", got)
			}
		})
		t.Run(name+" on read", func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			out, errOut, code := runProxy(t, []string{path, "MCPTRAIL_HOME=" + home}, stdin, "--", "sh", "-c", script)
			if code != 0 || out != stdin {
				t.Fatalf("exit %d, client got %q; stderr %s", code, out, errOut)
			}
			checkViews(t, home, c, "--redact-secrets")
		})
	}
}
