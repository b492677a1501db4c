package tui_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestTruncatedWhileFollowed opens `mcptrail open` on the capture a live
// `mcptrail -- fastserver` is writing, then truncates the file under it
// while the writer still holds it: once the status message is gone, the
// title line still says the file was truncated, and the calls read before
// stay on screen.
func TestTruncatedWhileFollowed(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "live.jsonl")
	stderr := new(testbin.Buffer)
	cmd := exec.Command(bins.mcptrail, "--label", "cutlive", "--capture", path, "--", bins.fastserver)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+home)
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
	t.Cleanup(func() {
		in.Close() // the server sees EOF and exits, and mcptrail with it
		if err := cmd.Wait(); err != nil {
			t.Errorf("mcptrail: %v\n%s", err, stderr.Bytes())
		}
	})
	answers := bufio.NewScanner(out)
	const calls = 3
	for i := 1; i <= calls; i++ {
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`+"\n", i)
		if !answers.Scan() {
			t.Fatalf("no answer to call %d: %v\n%s", i, answers.Err(), stderr.Bytes())
		}
	}

	tm := testbin.StartTerm(t, 120, 30, []string{"MCPTRAIL_HOME=" + home}, bins.mcptrail, "open", path)
	tm.WaitFor(`(?s)cutlive.*● live.*3 calls`, 10*time.Second)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	// The status message says it for a few seconds, then the title line.
	tm.WaitFor(`file truncated: showing what was read`, 20*time.Second)
	screen := tm.Screen()
	if !strings.Contains(screen, "3 calls") || strings.Count(screen, "tools/call") != calls || strings.Contains(screen, "● live") {
		t.Errorf("the screen lost the calls read before the truncation, or still says live:\n%s", screen)
	}
}
