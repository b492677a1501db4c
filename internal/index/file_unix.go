//go:build unix

package index

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// openNoFollow opens path without following a symbolic link at its last
// component (O_NOFOLLOW: the open fails with ELOOP) and without waiting on
// a pipe put there after the caller's Lstat (O_NONBLOCK).
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
}

// isSymlinkErr reports whether err is O_NOFOLLOW's refusal of a link.
func isSymlinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }

// lockDir takes an exclusive flock on the directory dir, waiting its
// turn, and returns what drops it. The kernel drops it too when the
// process ends, however it ends.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return func() { _ = f.Close() }, nil
}

// isSharingViolation reports false: a rename here never fails for an open file.
func isSharingViolation(error) bool { return false }
