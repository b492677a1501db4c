//go:build !windows

package capture

import (
	"errors"
	"path/filepath"
)

// defaultStateDir is the state directory when neither MCPTRAIL_HOME nor
// XDG_STATE_HOME is set: ~/.local/state/mcptrail.
func defaultStateDir(getenv func(string) string) (string, error) {
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("locating state directory: none of MCPTRAIL_HOME, XDG_STATE_HOME or HOME is set")
	}
	return filepath.Join(home, ".local", "state", "mcptrail"), nil
}
