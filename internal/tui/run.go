package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Run runs the app on the terminal until the user quits or ctx ends, then
// closes what it opened. It returns why the session named in opts could
// not be opened, or the program's error.
func Run(ctx context.Context, opts Options, progOpts ...tea.ProgramOption) error {
	p := tea.NewProgram(New(ctx, opts), append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)
	m, err := p.Run()
	if a, ok := m.(App); ok {
		a.Close()
		if a.fatal != nil {
			return a.fatal
		}
	}
	return err
}
