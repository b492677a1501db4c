//go:build unix

package index

import (
	"syscall"
	"testing"
)

// TestFIFOIsLeftAlone: a pipe at the index's place is refused before any
// open, which would wait on it.
func TestFIFOIsLeftAlone(t *testing.T) {
	checkForeign(t, func(t *testing.T, path, _ string) {
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
	}, "", "not a regular file")
}
