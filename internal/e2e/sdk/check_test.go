package sdk_test

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"
)

// checkClean runs `mcptrail check` on capture with the default rules and
// fails t unless it exits 0: real SDK traffic must raise nothing at error
// severity (zero false positives).
func checkClean(t *testing.T, capture string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, "check", capture)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Errorf("mcptrail check %s: %v\nstdout:\n%s\nstderr:\n%s", capture, err, stdout.Bytes(), stderr.Bytes())
	}
}
