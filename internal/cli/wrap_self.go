package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// selfPath is the command wrap writes for this binary, exe (os.Executable,
// its symbolic links resolved): the name it was started by, arg0, looked
// up on PATH when it names no directory and made absolute, when that is
// the same file. A package manager's link on PATH (Homebrew's
// /opt/homebrew/bin/mcptrail, a nix profile's) outlives an upgrade; the
// Cellar or store path it leads to does not.
func selfPath(arg0, exe string) string {
	name := arg0
	if !strings.ContainsAny(arg0, `/\`) {
		found, err := exec.LookPath(arg0)
		if err != nil {
			return exe
		}
		name = found
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return exe
	}
	a, err := os.Stat(abs)
	if err != nil {
		return exe
	}
	if b, err := os.Stat(exe); err != nil || !os.SameFile(a, b) {
		return exe
	}
	return abs
}
