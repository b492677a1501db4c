// Package testbin builds mcptrail's own programs for end-to-end tests, so
// that every test package runs the real binaries the same way. It is used
// only from tests; it runs the go command and keeps no state.
package testbin

import (
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
)

// Module is the import path of the mcptrail module.
const Module = "github.com/mcptrail/mcptrail"

// Mcptrail is the import path of the mcptrail command.
const Mcptrail = Module + "/cmd/mcptrail"

// Build compiles the package with import path pkg into dir, naming the
// binary after the last element of pkg, with the race detector when race
// is set, and returns the binary's path.
func Build(dir, pkg string, race bool) (string, error) {
	out := filepath.Join(dir, path.Base(pkg))
	args := []string{"build", "-o", out}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, pkg)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %w\n%s", pkg, err, b)
	}
	return out, nil
}
