//go:build unix

package cli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteOutputNeverReplacesASpecialFile: -o naming a named pipe (as
// /dev/null or /dev/stdout would be) writes through it, and the pipe is
// still a pipe afterwards; the check before it does not open the pipe to
// read it, which would wait for a writer.
func TestWriteOutputNeverReplacesASpecialFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	checked := make(chan error, 1)
	go func() { checked <- checkOutputFile(fifo) }()
	select {
	case err := <-checked:
		if err != nil {
			t.Fatalf("checkOutputFile(fifo) = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("checkOutputFile blocked on a named pipe")
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	err := writeOutput(&IOStreams{}, fifo, func(w io.Writer, spoolDir string) error {
		if spoolDir != "" {
			t.Errorf("spoolDir = %q, want the default (not the pipe's directory)", spoolDir)
		}
		_, err := io.WriteString(w, "report\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "report\n" {
		t.Errorf("the pipe's reader got %q, want %q", s, "report\n")
	}
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("after the write: %v, %v; want the named pipe still there", fi.Mode(), err)
	}
}

// TestWriteOutputFollowsASymlink: -o naming a symbolic link writes the
// file it names, atomically, and leaves the link a link; a link to a
// missing file is refused, and nothing is created.
func TestWriteOutputFollowsASymlink(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json")
	if err := os.WriteFile(real, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	write := func(w io.Writer, _ string) error { _, err := io.WriteString(w, "new\n"); return err }
	if err := writeOutput(&IOStreams{}, link, write); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new\n" {
		t.Errorf("the link's target holds %q, want the output", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("after the write the link is %v (%v), want a symbolic link still", fi.Mode(), err)
	}

	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink(filepath.Join(dir, "missing", "x.json"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := writeOutput(&IOStreams{}, dangling, write); err == nil {
		t.Error("a link to a missing file: want an error")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("a link to a missing file: its directory was created")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files left: %d, want the 3 made here (no temporary file)", len(entries))
	}
}
