package stdio

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// pipe returns an anonymous pipe. Windows anonymous pipes are synchronous:
// a relay blocked in ReadFile is woken by the kernel directly, and, as on
// Unix, Run abandons a relay whose pipe a grandchild keeps open.
func pipe() (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("creating pipe: %w", err)
	}
	return r, w, nil
}

// errNoData is ERROR_NO_DATA, "the pipe is being closed", which a write
// to a pipe whose reader is gone may fail with, as ERROR_BROKEN_PIPE does.
const errNoData = syscall.Errno(232)

// brokenPipe reports whether err is a write to a pipe whose reader is gone.
func brokenPipe(err error) bool {
	return errors.Is(err, syscall.ERROR_BROKEN_PIPE) || errors.Is(err, errNoData) || errors.Is(err, syscall.EPIPE)
}
