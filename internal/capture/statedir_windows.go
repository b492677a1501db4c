package capture

import (
	"errors"
	"path/filepath"
)

// defaultStateDir is the state directory when neither MCPTRAIL_HOME nor
// XDG_STATE_HOME is set: %LOCALAPPDATA%\mcptrail, else
// %USERPROFILE%\AppData\Local\mcptrail. Local, not roaming: captures are
// large and belong to this machine.
func defaultStateDir(getenv func(string) string) (string, error) {
	if d := getenv("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "mcptrail"), nil
	}
	if d := getenv("USERPROFILE"); d != "" {
		return filepath.Join(d, "AppData", "Local", "mcptrail"), nil
	}
	return "", errors.New("locating state directory: none of MCPTRAIL_HOME, XDG_STATE_HOME, LOCALAPPDATA or USERPROFILE is set")
}
