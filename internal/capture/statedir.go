package capture

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Ext is the file extension of session captures.
const Ext = ".jsonl"

// StateDir returns mcptrail's state directory from the environment:
// $MCPTRAIL_HOME, else $XDG_STATE_HOME/mcptrail, else
// ~/.local/state/mcptrail (%LOCALAPPDATA%\mcptrail on Windows). getenv is
// os.Getenv in production.
func StateDir(getenv func(string) string) (string, error) {
	if d := getenv("MCPTRAIL_HOME"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "mcptrail"), nil
	}
	return defaultStateDir(getenv)
}

// SessionsDir returns the sessions directory under state.
func SessionsDir(state string) string { return filepath.Join(state, "sessions") }

// NewSessionID returns a new random session id.
func NewSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CreateSessionFile creates a new private session file under dir (made
// 0700 if missing), named from the start time, label and id. It never
// replaces an existing file (O_EXCL).
func CreateSessionFile(dir string, start time.Time, label, id string) (*File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating sessions directory: %w", err)
	}
	name := start.UTC().Format("20060102T150405.000000Z") + "-" + FileSafe(label) + "-" + id + Ext
	return CreateFile(filepath.Join(dir, name), Exclusive)
}

// FileSafe spells s as one file name component: every character outside
// A-Z a-z 0-9 - _ . becomes _, a leading dot too (so the result is never
// ".", "..", a name of dots alone or a hidden file), cut to 40 bytes,
// "session" when empty. It never holds a path separator.
func FileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
	if len(s) > 40 {
		s = s[:40]
	}
	if strings.HasPrefix(s, ".") {
		s = "_" + s[1:]
	}
	if s == "" {
		s = "session"
	}
	return s
}

// SessionFiles lists the capture files in dir, newest first by name, which
// starts with the UTC start time to the microsecond.
func SessionFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), Ext) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(files)))
	return files, nil
}
