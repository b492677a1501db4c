package cli

import (
	"errors"
	"fmt"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/source"
)

// ExitCode is mcptrail's process exit status. Errors map to codes in one
// place: exitCodeFor, through the table exitKinds. README.md's "Exit
// codes" section is the user's copy of this list.
type ExitCode int

// The exit codes. A wrapped server's own status passes through as is, so
// the proxy may exit with any status; these are mcptrail's own.
const (
	ExitOK ExitCode = 0
	// ExitError: an operation failed (an I/O error, an output that
	// cannot be written, a port in use, a capture locked by another run).
	ExitError ExitCode = 1
	// ExitUsage: the invocation is wrong: a flag, an argument, a name
	// that is not on its fixed list (format, rule id, category,
	// subcommand), a value in .mcptrail.toml, an ambiguous session
	// prefix, or an output path mcptrail refuses (an existing capture, a
	// symbolic link, a directory).
	ExitUsage ExitCode = 2
	// ExitInput: an input could not be read: it does not exist (a
	// capture file, a session id, any session at all) or it is not
	// usable (not an mcptrail capture, an empty one, one in a newer
	// format). A damaged capture is read, with a warning. `check` (issue
	// 13) exits 3 for the same reasons.
	ExitInput ExitCode = 3

	// ExitFindings: check found a problem at or above --fail-on. It is
	// 1, as ExitError, for check only (an operation that fails in check
	// exits 1 too): CI reads 1 as "failed".
	ExitFindings ExitCode = 1

	// 4 to 9 are left for check (issue 13).

	// ExitCannotRun: the wrapped server's command exists but could not
	// be run (as a shell says).
	ExitCannotRun ExitCode = 126
	// ExitServerNotFound: the wrapped server's command was not found.
	ExitServerNotFound ExitCode = 127
)

// Error kinds that commands wrap an error with (notFound, badInput) so
// that it exits with the kind's code; errors.Is(err, errNotFound) tells
// it. The message stays the wrapped error's.
var (
	errNotFound = errors.New("not found")
	errBadInput = errors.New("bad input")
)

// exitKind maps an error kind to its exit code.
type exitKind struct {
	kind error
	code ExitCode
}

// exitKinds is the table of error kinds, first match wins: the kinds
// commands mark, then the sentinels of the packages below that always
// mean the same thing to a user.
func exitKinds() []exitKind {
	return []exitKind{
		{errNotFound, ExitInput},
		{errBadInput, ExitInput},
		{capture.ErrNotCapture, ExitInput},
		{capture.ErrFutureVersion, ExitInput},
		{source.ErrNoSession, ExitInput}, // open --session
		{source.ErrAmbiguous, ExitUsage},
	}
}

// kindError is err marked with kind (errNotFound, errBadInput).
type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.err, e.kind} }

// notFoundf is an error of kind errNotFound: what the user named to be
// read does not exist. The message names it and where it was looked for.
func notFoundf(format string, args ...any) error {
	return &kindError{errNotFound, fmt.Errorf(format, args...)}
}

// badInput marks err as of kind errBadInput: what was read is not usable.
func badInput(err error) error {
	return &kindError{errBadInput, err}
}

// usageError marks an error as the user's invocation being wrong.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// asUsage marks err as a usage error, keeping its message and chain.
func asUsage(err error) error {
	return &usageError{err}
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
	for _, k := range exitKinds() {
		if errors.Is(err, k.kind) {
			return k.code
		}
	}
	return ExitError
}
