//go:build unix

package peers_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestStderrReaderGoneChecksClean runs `mcptrail --capture FILE -- SERVER`
// with its stderr a pipe whose reader is already gone, as mcp-go's stdio
// client leaves it when Close closes that pipe before mcptrail exits. The
// server writes stderr lines and exits: relaying them fails with EPIPE,
// which raises no finding (no relay-error), and every line is captured.
func TestStderrReaderGoneChecksClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	capt := filepath.Join(dir, "session.jsonl")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, "--capture", capt, "--",
		"sh", "-c", "echo starting >&2; echo ready >&2; echo bye >&2")
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+dir)
	cmd.Stderr = w
	stdin, err := cmd.StdinPipe() // held open: mcptrail ends when the server exits
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail: %v", err)
	}
	f, err := os.Open(capt)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, recs, _, err := capture.ReadAll(f)
	if err != nil {
		t.Fatalf("reading the capture: %v", err)
	}
	var lines []string
	for _, rec := range recs {
		if rec.Type == capture.TypeStderr {
			lines = append(lines, string(rec.Bytes()))
		}
	}
	if diff := cmp.Diff("starting ready bye", strings.Join(lines, " ")); diff != "" {
		t.Errorf("stderr records (-want +got):\n%s", diff)
	}
	checkNoFindings(t, capt)
}
