package tui

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Streams are the terminal the app runs on: where keys come from and
// where the screen is drawn. The zero value is the process's terminal.
type Streams struct {
	// In is where keys come from; nil means standard input, or the
	// controlling terminal when standard input is not one (it carries the
	// capture: mcptrail open -).
	In io.Reader
	// Out is where the screen is drawn; nil means standard output.
	Out io.Writer
}

// ProgramOptions are the Bubble Tea options that run a program on s.
func (s Streams) ProgramOptions() []tea.ProgramOption {
	var opts []tea.ProgramOption
	if s.In != nil {
		opts = append(opts, tea.WithInput(s.In))
	}
	if s.Out != nil {
		opts = append(opts, tea.WithOutput(s.Out))
	}
	return opts
}

// Run runs the app on opts.Streams until the user quits or ctx ends, then
// closes what it opened. progOpts come after those of the streams (a test
// gives a window size). It returns why the session named in opts could
// not be opened, or the program's error.
func Run(ctx context.Context, opts Options, progOpts ...tea.ProgramOption) error {
	all := append([]tea.ProgramOption{tea.WithContext(ctx)}, opts.Streams.ProgramOptions()...)
	p := tea.NewProgram(New(ctx, opts), append(all, progOpts...)...)
	m, err := p.Run()
	if a, ok := m.(App); ok {
		a.Close()
		if a.fatal != nil {
			return a.fatal
		}
	}
	return err
}
