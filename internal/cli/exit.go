package cli

import (
	"errors"
	"fmt"
)

// ExitCode is mcptrail's process exit status. Errors map to codes in one
// place: exitCodeFor.
type ExitCode int

// The exit codes. A wrapped server's own status passes through as is.
const (
	ExitOK    ExitCode = 0
	ExitError ExitCode = 1 // an operation failed (I/O, bad capture)
	ExitUsage ExitCode = 2 // bad flags or arguments
)

// usageError marks an error as the user's invocation being wrong.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitError carries an exact status to exit with (the wrapped server's).
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func exitCodeFor(err error) ExitCode {
	var ee *exitError
	var ue *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ExitCode(ee.code)
	case errors.As(err, &ue):
		return ExitUsage
	}
	return ExitError
}
