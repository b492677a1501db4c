package testbin

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// StartListener starts cmd (an mcptrail listener such as `mcptrail
// http`), copies its stderr line by line into stderr, and returns the
// first submatch of the first stderr line re matches (the address it
// printed). done (buffered, capacity 1) receives cmd.Wait's result; a
// result StartListener took while waiting is put back. It fails t,
// killing the process, when cmd exits or stays silent for 20 seconds.
func StartListener(t testing.TB, cmd *exec.Cmd, stderr *Buffer, done chan error, re *regexp.Regexp) string {
	t.Helper()
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait(); pw.Close() }()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			stderr.Write(append(sc.Bytes(), '\n'))
			if m := re.FindSubmatch(sc.Bytes()); m != nil {
				select {
				case found <- string(m[1]):
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case addr := <-found:
		return addr
	case err := <-done:
		done <- err
		t.Fatalf("%s exited before listening: %v\nstderr:\n%s", cmd, err, stderr.String())
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		err := <-done
		done <- err
		t.Fatalf("%s did not start listening; stderr:\n%s", cmd, stderr.String())
	}
	return ""
}

// StopListener interrupts cmd (started by StartListener) and waits for
// it to exit cleanly; it fails t when cmd exits with an error, or kills it
// and fails t when it is still running after 15 seconds.
func StopListener(t testing.TB, cmd *exec.Cmd, stderr *Buffer, done chan error) {
	t.Helper()
	_ = cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s exited with %v; stderr:\n%s", cmd, err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not exit after SIGINT; stderr:\n%s", cmd, stderr.String())
	}
}
