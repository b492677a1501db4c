package source_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail, fastserver string
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	if os.Getenv("SOURCE_OPEN_CHILD") != "" {
		os.Exit(m.Run()) // BenchmarkOpen200kRSS's child builds nothing
	}
	os.Exit(testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail},
		testbin.Target{Out: &bins.fastserver, Pkg: testbin.Module + "/internal/e2e/fastserver"},
	))
}

// TestRealProxy runs the real mcptrail as a stdio proxy writing into a
// state directory: the hub lists its session live, Open follows it call
// by call, and once the client closes both see it end with every call.
func TestRealProxy(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := capture.SessionsDir(home)
	h := source.Watch(context.Background(), dir, nil)
	defer h.Close()

	cmd, stdin, out, stderr := startProxy(t, home)
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	l := waitList(t, h, "the live session", func(l []ui.SessionInfo) bool { return len(l) == 1 && l[0].Live })
	s, err := source.Open(context.Background(), l[0].Path, l[0].ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 500
	for i := 1; i <= n; i++ {
		if _, err := fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`+"\n", i); err != nil {
			t.Fatal(err)
		}
		if _, err := out.ReadString('\n'); err != nil {
			t.Fatalf("reading answer %d: %v; stderr %s", i, err, stderr.String())
		}
		if i == n/2 {
			d := until(t, s, "half the calls", func(d ui.Data) bool { return calls(d) >= n/2 })
			if !d.Live {
				t.Error("the session is not live while the proxy runs")
			}
		}
	}
	stdin.Close()
	if _, err := io.Copy(io.Discard, out); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("proxy: %v; stderr %s", err, stderr.String())
	}
	d := drain(t, s)
	if d.Live || calls(d) != n || !d.Snap.Session.Ended || d.Snap.Session.Label != "real" {
		t.Errorf("last Data: live %v, %d calls, ended %v, label %q; want not live, %d, ended, real", d.Live, calls(d), d.Snap.Session.Ended, d.Snap.Session.Label, n)
	}
	waitList(t, h, "the ended session", func(l []ui.SessionInfo) bool {
		return len(l) == 1 && !l[0].Live && l[0].Calls == n && l[0].Label == "real"
	})
}

// TestRealProxyBurst pipelines 20,000 calls through the real proxy while
// Open follows its capture: the last Data holds every call, answered.
func TestRealProxyBurst(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cmd, stdin, out, stderr := startProxy(t, home)
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	files, err := capture.SessionFiles(capture.SessionsDir(home))
	if err != nil || len(files) != 1 {
		t.Fatalf("session files %v, %v", files, err)
	}
	s, err := source.Open(context.Background(), files[0], "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 20_000
	werr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriter(stdin)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`+"\n", i)
		}
		err := bw.Flush()
		stdin.Close()
		werr <- err
	}()
	got := 0
	for ; ; got++ {
		if _, err := out.ReadString('\n'); err != nil {
			break
		}
	}
	if err := <-werr; err != nil || got != n {
		t.Fatalf("%d answers, writing: %v; stderr %s", got, err, stderr.String())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("proxy: %v; stderr %s", err, stderr.String())
	}
	d := drain(t, s)
	if d.Live || calls(d) != n || d.Snap.Summary.Methods[0].Count != n {
		t.Fatalf("last Data: live %v, %d calls; want not live, %d", d.Live, calls(d), n)
	}
	for i := range n {
		if c := d.Snap.Calls.At(i); c.Status != store.StatusOK {
			t.Fatalf("call %d: %s", i, c.Status)
		}
	}
}

// startProxy starts the real mcptrail proxying fastserver with state
// directory home, and waits for the server to be ready.
func startProxy(t *testing.T, home string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *testbin.Buffer) {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, "--label", "real", "--", bins.fastserver, "-ready")
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &testbin.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("proxy: %q, %v; stderr %s", line, err, stderr.String())
	}
	return cmd, stdin, out, stderr
}
