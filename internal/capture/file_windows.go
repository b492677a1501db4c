//go:build windows

package capture

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// openNoFollow opens path. Windows has no O_NOFOLLOW for os.OpenFile;
// CreateFile's Lstat check before the open guards against a link at the
// last component.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// isSymlinkErr reports false: no open here refuses a link.
func isSymlinkErr(error) bool { return false }

// lockOffset is where the lock byte sits: far past any real content, so
// the mandatory Windows lock never blocks a reader of the capture.
const lockOffset = 1<<62 - 1

// lockFile takes an exclusive, non-blocking LockFileEx lock on one byte
// of f; ErrLocked when another handle holds it. Windows releases it when
// the handle is closed or the process exits.
func lockFile(f *os.File) error {
	err := lock(f, windows.LOCKFILE_EXCLUSIVE_LOCK)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLocked
	}
	return err
}

// unlockFile drops f's lock byte.
func unlockFile(f *os.File) {
	ol := overlapped()
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}

// probeLock reports whether another handle holds f's lock.
func probeLock(f *os.File) bool {
	err := lock(f, 0)
	if err != nil {
		return errors.Is(err, windows.ERROR_LOCK_VIOLATION)
	}
	unlockFile(f)
	return false
}

func lock(f *os.File, flags uint32) error {
	ol := overlapped()
	return windows.LockFileEx(windows.Handle(f.Fd()), flags|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
}

func overlapped() windows.Overlapped {
	return windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
}
