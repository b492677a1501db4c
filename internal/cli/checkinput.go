package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/check"
	"github.com/mcptrail/mcptrail/internal/session"
)

// checkInput checks what arg names: "-" every session on standard input,
// a directory every capture in it, a file every session in it, else a
// session id or prefix in the state directory ("" the newest session).
// A read error is of kind errBadInput unless it says otherwise.
func checkInput(fac *Factory, c *check.Checker, arg string) error {
	ios := fac.IOStreams
	if arg == "-" {
		return checkInputErr(checkAll(c, ios.In, "-"))
	}
	if fi, err := os.Stat(arg); err == nil && arg != "" {
		if fi.IsDir() {
			return checkDir(c, arg)
		}
		return checkFile(c, arg)
	}
	ci, err := openExportInput(fac, arg, "")
	if err != nil {
		return err
	}
	defer ci.in.Close()
	r, err := openSession(ios, ci)
	if err != nil {
		return checkInputErr(err)
	}
	return checkInputErr(c.Check(r, ci.name))
}

// checkInputErr marks a read error as an input that could not be read,
// keeping the kinds (usage, not found) it has.
func checkInputErr(err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) || exitCodeFor(err) != ExitError {
		return err
	}
	return badInput(err)
}

// checkDir checks every capture file in dir, in name order
// (session.EachIn).
func checkDir(c *check.Checker, dir string) error {
	err := session.EachIn(dir, func(p string) error { return checkFile(c, p) })
	var de *session.DirError
	switch {
	case errors.As(err, &de) && de.Err != nil:
		return badInput(fmt.Errorf("reading directory %s: %w", dir, reason(de.Err)))
	case errors.As(err, &de):
		return notFoundf("no capture in directory %s", dir)
	}
	return err
}

// checkFile checks every session in the capture file at path.
func checkFile(c *check.Checker, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return openCaptureError(path, err)
	}
	defer f.Close()
	return checkInputErr(checkAll(c, f, path))
}

// checkAll checks every session of the capture read from in.
func checkAll(c *check.Checker, in io.Reader, name string) error {
	r, err := capture.NewReader(in)
	if err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	for {
		if err := c.Check(r, name); err != nil {
			return err
		}
		if err := r.NextSession(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading %s: %w", name, err)
		}
	}
}

// readBaseline reads the --baseline file; a missing or unreadable one is
// an input that could not be read.
func readBaseline(path string) (*check.Baseline, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, notFoundf("no baseline file %s", path)
	}
	if err != nil {
		return nil, badInput(fmt.Errorf("opening baseline %s: %w", path, reason(err)))
	}
	defer f.Close()
	b, err := check.ReadBaseline(f)
	if err != nil {
		return nil, badInput(fmt.Errorf("reading %s: %w", path, err))
	}
	return b, nil
}

// checkBaselinePath refuses a --write-baseline path that is a capture,
// a directory, or inside the state directory: check writes nothing there.
func checkBaselinePath(fac *Factory, path string) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return usagef("--write-baseline takes a file name, not -")
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("--write-baseline %s is a directory", path)
	}
	if ok, err := capture.IsCapture(path); err == nil && ok {
		return usagef("--write-baseline %s is an mcptrail capture; check never replaces one", path)
	}
	state, err := fac.StateDir()
	if err != nil {
		return nil //nolint:nilerr // no state directory: nothing to protect
	}
	if a, s := absClean(path), absClean(state); a != "" && s != "" && strings.HasPrefix(a, s+string(filepath.Separator)) {
		return usagef("--write-baseline %s is inside the state directory %s; check never writes there", path, state)
	}
	return nil
}
