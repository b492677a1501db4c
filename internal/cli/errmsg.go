package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Messages name the path, session or address they are about once: these
// helpers take the operating system's own wording ("open x: no such file
// or directory") apart so that mcptrail's prefix can name x itself.

// reason is capture.PathCause: err without the operation and paths the
// operating system's error adds.
func reason(err error) error { return capture.PathCause(err) }

// openCaptureError is the error of opening the capture file at path: a
// missing file is of kind errNotFound.
func openCaptureError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return notFoundf("no capture file %s", path)
	}
	return fmt.Errorf("opening capture %s: %w", path, reason(err))
}

// outputError names the output path in an error that names the
// temporary file written in its place (a full disk while writing); any
// other error (reading the input) is returned as is.
func outputError(path, tmp string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == tmp {
		return fmt.Errorf("writing %s: %w", path, pe.Err)
	}
	return err
}

// startError rewords the error of a server command that could not be
// started so that it names the command once ("starting srv: executable
// file not found in $PATH", not "starting srv: exec: "srv": executable
// file not found in $PATH"). An error that says more (a capture that also
// failed to close) is left whole.
func startError(err error) error {
	if strings.Contains(err.Error(), "\n") {
		return err
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return fmt.Errorf("starting %s: %w", ee.Name, ee.Err)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "fork/exec" {
		return fmt.Errorf("starting %s: %w", pe.Path, pe.Err)
	}
	return err
}

// listenError is the error of listening on addr (--listen): an address
// that cannot be one is a usage error; one that is taken or not local
// fails the operation.
func listenError(addr string, err error) error {
	var ae *net.AddrError
	if errors.As(err, &ae) {
		return usagef("--listen %q: %s", addr, ae.Err)
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return fmt.Errorf("listening on %s: %w", addr, se.Err)
	}
	return fmt.Errorf("listening on %s: %w", addr, err)
}
