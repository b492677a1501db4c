package cli

import (
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
)

// IOStreams carries a command's standard streams, environment and clock.
// Nothing in mcptrail writes to os.Stdout directly.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Getenv reads the environment; os.Getenv in production.
	Getenv func(string) string
	// Now is the clock; time.Now in production.
	Now func() time.Time
	// OutIsTerminal reports whether Out is a terminal.
	OutIsTerminal bool
	// InIsTerminal reports whether In is a terminal.
	InIsTerminal bool
	// OutWidth is the width of the terminal Out is, in columns; 0 when
	// unknown. Tables fit it (tableout.go).
	OutWidth int
	// color is the --color flag's value; "" is auto.
	color colorMode
}

// System returns the process's real streams.
func System() *IOStreams {
	ios := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, Getenv: os.Getenv, Now: time.Now,
		OutIsTerminal: isTerminal(os.Stdout), InIsTerminal: isTerminal(os.Stdin)}
	if ios.OutIsTerminal {
		if w, _, err := term.GetSize(os.Stdout.Fd()); err == nil {
			ios.OutWidth = w
		}
	}
	return ios
}

// isTerminal reports whether f is a terminal: it answers the terminal's
// ioctl. /dev/null is a character device too, and not one (demo
// >/dev/null must not start the TUI).
func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }
