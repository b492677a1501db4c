package clientconfig

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/aymanbagabas/go-udiff"
)

// Diff is a unified diff from old to new, labelled with path.
func Diff(path string, old, new []byte) string {
	return udiff.Unified(path, path+" (new)", string(old), string(new))
}

// Backup writes data, the file's current content, next to path as
// PATH.mcptrail-backup-TIME (UTC, 20060102T150405Z; -2, -3... when that
// exists), private to the user (0600), and returns its name. It never
// replaces a file.
func Backup(path string, data []byte, now time.Time) (string, error) {
	base := path + ".mcptrail-backup-" + now.UTC().Format("20060102T150405Z")
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name += "-" + strconv.Itoa(i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("writing backup of %s: %w", path, err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("writing backup %s: %w", name, err)
		}
		return name, nil
	}
}

// ErrChanged is returned by Replace when the file no longer holds what
// was read: its client wrote it meanwhile.
var ErrChanged = errors.New("the file changed while it was being edited; run again")

// Replace writes data to path at once (a temporary file renamed over it),
// keeping the file's permissions, if path still holds old (else
// ErrChanged). A symbolic link (a dotfiles manager's) stays a link: its
// target is replaced.
func Replace(path string, old, data []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	if now, err := os.ReadFile(real); err != nil || !bytes.Equal(now, old) {
		return fmt.Errorf("replacing %s: %w", path, cmp.Or(err, ErrChanged))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".mcptrail-*")
	if err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(fi.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), real)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}
