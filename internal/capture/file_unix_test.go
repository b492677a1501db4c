//go:build unix

package capture

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCloseReleasesLockHeldByChild: a child process that shares the
// capture's open file description (as a server forked by the stdio tap
// does until its exec) must not keep the lock alive once the writer
// closes; the next writer of the path gets it at once.
func TestCloseReleasesLockHeldByChild(t *testing.T) {
	t.Parallel()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	path := filepath.Join(t.TempDir(), "c.jsonl")
	first, err := CreateFile(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(sleep, "30")
	child.ExtraFiles = append(child.ExtraFiles, first.File)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = child.Process.Kill()
		_ = child.Wait()
	}()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := CreateFile(path, Append)
	if err != nil {
		t.Fatalf("after the holder closed, with a child sharing its file: %v", err)
	}
	again.Close()
}
