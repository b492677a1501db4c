// Package testbin builds mcptrail's own programs for end-to-end tests, so
// that every test package runs the real binaries the same way. It is used
// only from tests; it runs the go command and keeps no state.
package testbin

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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

// Target is one binary for Main to build: the package pkg, built into
// *Out, with the race detector when Race is set.
type Target struct {
	Out  *string
	Pkg  string
	Race bool
}

// Main builds the targets into a fresh temporary directory, gives the
// test process and every process it starts a home of their own there
// (Isolate), runs the tests, removes the directory and returns the exit
// code for os.Exit. A package's TestMain is then
// `os.Exit(testbin.Main(m, targets...))`.
func Main(m *testing.M, targets ...Target) int {
	dir, err := os.MkdirTemp("", "mcptrail-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := Isolate(filepath.Join(dir, "home")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, t := range targets {
		if *t.Out, err = Build(dir, t.Pkg, t.Race); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}

// Isolate points HOME, the XDG base directories and MCPTRAIL_HOME of this
// process, and so of every process it starts, into home, created here:
// the real clients (Claude Code, Gemini CLI, Codex CLI write
// ~/.claude.json, ~/.gemini, ~/.codex), npm and mcptrail itself then
// write nothing in the user's home. The go command's own directories
// (GOCACHE, GOMODCACHE, GOPATH, GOENV) are pinned first to where they
// were, so builds keep their caches.
func Isolate(home string) error {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		return fmt.Errorf("go env: %w", err)
	}
	vals := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"} {
		if i < len(vals) && os.Getenv(name) == "" {
			os.Setenv(name, vals[i])
		}
	}
	dirs := map[string]string{
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME":  filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":  filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":   filepath.Join(home, ".local", "share"),
		"MCPTRAIL_HOME":   filepath.Join(home, ".mcptrail"),
	}
	for name, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
		os.Setenv(name, d)
	}
	return nil
}

// Buffer is a bytes.Buffer safe for one writer goroutine and concurrent
// readers, for collecting a process's output while a test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes returns a copy of what was written so far.
func (b *Buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
