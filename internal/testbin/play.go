package testbin

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/transcript"
)

// PlayThroughProxy plays tr's client side against `bin args... -- bin
// __replay-server path --scale 0` (bin is a mcptrail binary, the
// transcript's server side replayed behind the real proxy) with env added
// to the environment, fails t unless both sides end cleanly, and returns
// the proxy's stderr.
func PlayThroughProxy(t testing.TB, bin string, tr *transcript.Transcript, path string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	argv := append(append([]string{}, args...), "--", bin, "__replay-server", path, "--scale", "0")
	cmd := exec.CommandContext(ctx, bin, argv...)
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	playErr := tr.Play(ctx, stdin, stdout, nil)
	if playErr != nil {
		_, _ = io.Copy(io.Discard, stdout)
	}
	if waitErr := cmd.Wait(); playErr != nil || waitErr != nil {
		t.Fatalf("client: %v; proxy: %v; stderr:\n%q", playErr, waitErr, stderr.String())
	}
	return stderr.String()
}
