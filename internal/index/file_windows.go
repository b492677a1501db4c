//go:build windows

package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockName is the file in the state directory that processes moving an
// old index aside lock in turn (Windows has no lock on a directory).
const lockName = ".index.db.lock"

// openNoFollow opens path. Without O_NOFOLLOW, inspect's Lstat before the
// open is the guard against a link at the last component.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// isSymlinkErr reports false: no open here refuses a link.
func isSymlinkErr(error) bool { return false }

// isSharingViolation reports whether err says another handle has the file
// open without sharing deletion (SQLite, or inspect in another process).
func isSharingViolation(err error) bool { return errors.Is(err, windows.ERROR_SHARING_VIOLATION) }

// lockDir takes an exclusive lock (LockFileEx) on the lock file in dir,
// creating it (0600) when there is none, waiting its turn, and returns
// what drops it. Windows drops it too when the handle or process ends.
func lockDir(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	h := windows.Handle(f.Fd())
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() {
		_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
		_ = f.Close()
	}, nil
}
