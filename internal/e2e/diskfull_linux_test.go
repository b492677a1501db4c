package e2e_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestDiskFullUnderStdioTap runs `mcptrail -- fastserver` with its capture
// on a small tmpfs, fills the tmpfs mid-session and goes on calling: every
// answer comes back, mcptrail says at once that the capture failed, and
// once space is freed the capture ends with a capture-gap note whose
// counts are exactly the frames (and bytes) it lacks. The exit status
// stays the server's.
func TestDiskFullUnderStdioTap(t *testing.T) {
	t.Parallel()
	disk := testbin.MountTmpfs(t, "1m")
	path := filepath.Join(disk, "session.jsonl")
	stderr := new(testbin.Buffer)
	cmd := exec.Command(bins.mcptrail, "--capture", path, "--", bins.fastserver)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	c := &stdioClient{in: in, out: bufio.NewReader(out)}
	for range 20 {
		c.call(t)
	}
	testbin.FillDisk(t, filepath.Join(disk, "fill"))
	const failed = "mcptrail: capture write failed, still relaying"
	for !strings.Contains(stderr.String(), failed) {
		if c.calls > 100_000 {
			t.Fatalf("no capture failure after %d calls on a full disk; stderr:\n%s", c.calls, stderr.String())
		}
		c.call(t)
	}
	const after = 25 // calls made once the capture has failed: all lost
	for range after {
		c.call(t)
	}
	if err := os.Remove(filepath.Join(disk, "fill")); err != nil {
		t.Fatal(err)
	}
	in.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcptrail exited with %v, want the server's status 0; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("mcptrail did not exit after its stdin closed; stderr:\n%s", stderr.String())
	}
	if s := stderr.String(); !strings.Contains(s, "recorded in a capture-gap note") || strings.Count(s, failed) != 1 {
		t.Errorf("stderr does not say once that the capture failed and that the loss is in a capture-gap note:\n%s", s)
	}
	gap := testbin.CheckCaptureGap(t, path, int64(2*c.calls), c.bytes)
	t.Logf("%d calls, %d frames (%d bytes) lost", c.calls, gap.LostFrame, gap.LostBytes)
	if gap.LostFrame < 2*after {
		t.Errorf("%d frames lost, want at least the %d of the calls made after the failure", gap.LostFrame, 2*after)
	}
}

// stdioClient makes tools/call requests, one line each, and keeps count.
type stdioClient struct {
	in    io.Writer
	out   *bufio.Reader
	calls int
	bytes int64 // of the frames, without their newlines
}

// call sends one request and checks fastserver's answer, byte for byte.
func (c *stdioClient) call(t *testing.T) {
	t.Helper()
	c.calls++
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"n%d"}}`, c.calls, c.calls)
	if _, err := io.WriteString(c.in, req+"\n"); err != nil {
		t.Fatalf("call %d: %v", c.calls, err)
	}
	got, err := c.out.ReadString('\n')
	if err != nil {
		t.Fatalf("call %d: reading the answer: %v", c.calls, err)
	}
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}`+"\n", c.calls)
	if got != want {
		t.Fatalf("call %d: got %q, want %q", c.calls, got, want)
	}
	c.bytes += int64(len(req) + len(got) - 1)
}
