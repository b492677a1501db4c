package http_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// tap is a running `mcptrail http` process.
type tap struct {
	cmd     *exec.Cmd
	addr    string // host:port it listens on
	capture string
	stderr  *testbin.Buffer
	done    chan error
}

// listening matches the line mcptrail http prints once it listens.
var listening = regexp.MustCompile(`listening on http://(\S+)/`)

// startTap runs `mcptrail http --listen 127.0.0.1:0 --target target
// --capture DIR/session.jsonl extra...` and waits until it listens.
func startTap(t testing.TB, target string, extra ...string) *tap {
	t.Helper()
	return startTapIn(t, "", target, extra...)
}

// startTapIn is startTap with the working directory wd ("" = the test's),
// where mcptrail reads .mcptrail.toml.
func startTapIn(t testing.TB, wd, target string, extra ...string) *tap {
	t.Helper()
	dir := t.TempDir()
	tp := &tap{capture: filepath.Join(dir, "session.jsonl")}
	args := append([]string{"http", "--listen", "127.0.0.1:0", "--target", target, "--capture", tp.capture}, extra...)
	return launchTap(t, tp, dir, wd, args)
}

// launchTap runs mcptrail with args, MCPTRAIL_HOME=home, in the working
// directory wd, and returns tp once it listens; it is killed at cleanup
// if still running.
func launchTap(t testing.TB, tp *tap, home, wd string, args []string) *tap {
	t.Helper()
	tp.stderr, tp.done = new(testbin.Buffer), make(chan error, 1)
	tp.cmd = exec.Command(bins.mcptrail, args...)
	tp.cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	tp.cmd.Dir = wd
	tp.addr = testbin.StartListener(t, tp.cmd, tp.stderr, tp.done, listening)
	t.Cleanup(func() {
		if tp.cmd.ProcessState == nil {
			_ = tp.cmd.Process.Kill()
			<-tp.done
		}
	})
	return tp
}

// url returns the proxy's URL for path.
func (tp *tap) url(path string) string { return "http://" + tp.addr + path }

// stop sends SIGINT and waits for a clean exit.
func (tp *tap) stop(t testing.TB) {
	t.Helper()
	testbin.StopListener(t, tp.cmd, tp.stderr, tp.done)
}

// records reads the capture.
func (tp *tap) records(t *testing.T) []capture.Record {
	t.Helper()
	f, err := os.Open(tp.capture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatalf("opening the capture: %v", err)
	}
	out := []capture.Record{*r.Header()}
	for {
		var rec capture.Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading the capture: %v", err)
		}
		out = append(out, rec)
	}
	if d := r.Damage(); d.Torn || d.Corrupt != 0 {
		t.Errorf("capture damage %+v after a clean exit", d)
	}
	return out
}

// runExport runs `mcptrail export -T json capture` and returns its output.
func runExport(t *testing.T, path string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, "export", "-T", "json", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail export -T json %s: %v\nstderr:\n%s", path, err, stderr.Bytes())
	}
	return stdout.Bytes()
}
