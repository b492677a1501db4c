package replay_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// outcome is what one `mcptrail replay` run did.
type outcome struct {
	code     int
	stdout   string
	stderr   string
	capture  string // the new capture's path, from stderr
	duration time.Duration
}

// replayBound is how long any replay in these tests may take: a replay
// that hangs fails the test instead of the test binary's timeout.
const replayBound = 60 * time.Second

// runReplay runs `mcptrail replay args...` with MCPTRAIL_HOME in a fresh
// directory and returns what it did.
func runReplay(t *testing.T, args ...string) outcome {
	t.Helper()
	return runReplayIn(t, t.TempDir(), nil, args...)
}

// runReplayIn is runReplay in the directory home (MCPTRAIL_HOME and the
// working directory) with env added to the environment.
func runReplayIn(t *testing.T, home string, env []string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), replayBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, append([]string{"replay"}, args...)...)
	cmd.Env = append(append(cmd.Environ(), "MCPTRAIL_HOME="+home), env...)
	cmd.Dir = home
	var stdout, stderr testbin.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: stdout.String(), stderr: stderr.String(), duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("mcptrail replay %q did not end within %v\nstdout:\n%s\nstderr:\n%s", args, replayBound, o.stdout, o.stderr)
	case errors.As(err, &ee):
		o.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running mcptrail replay: %v", err)
	}
	if m := regexp.MustCompile(`capture: (\S+)`).FindStringSubmatch(o.stderr); m != nil {
		o.capture = m[1]
		if !filepath.IsAbs(o.capture) {
			o.capture = filepath.Join(home, o.capture)
		}
	}
	return o
}
