package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Each calls fn with a reader for every session in the capture file at
// path, in file order; fn must read its session to the end or leave it
// (NextSession skips the rest). It stops at fn's first error and returns
// it as is; an error reading the file is returned as the reader gives it
// (opening it says "opening capture" and why, not the path).
func Each(path string, fn func(*capture.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening capture: %w", capture.PathCause(err))
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		return err
	}
	for {
		if err := fn(r); err != nil {
			return err
		}
		if err := r.NextSession(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// DirError is a directory EachIn cannot walk: one it cannot read (Err),
// or one that holds no capture file (Err nil).
type DirError struct {
	Dir string
	Err error
}

// Error says which directory, and why.
func (e *DirError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("no capture in directory %s", e.Dir)
	}
	return fmt.Sprintf("reading directory %s: %v", e.Dir, capture.PathCause(e.Err))
}

// Unwrap returns why the directory could not be read.
func (e *DirError) Unwrap() error { return e.Err }

// EachIn calls fn with the path of every capture file in dir (regular
// files that capture.IsCapture says are captures; not its
// subdirectories), in name order. It calls fn for every file and returns
// their errors joined; a directory it cannot read, or that holds no
// capture, is a *DirError and fn is not called.
func EachIn(dir string, fn func(path string) error) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &DirError{Dir: dir, Err: err}
	}
	var paths []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() {
			continue
		}
		if ok, err := capture.IsCapture(p); err == nil && ok {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return &DirError{Dir: dir}
	}
	sort.Strings(paths)
	var errs []error
	for _, p := range paths {
		if err := fn(p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
