//go:build unix

package capture

import (
	"errors"
	"os"
	"syscall"
)

// discardFresh removes the file this run created, then closes it: the
// lock is held until the path is gone, so another mcptrail waiting to
// --append to that path never gets a file about to be removed.
func discardFresh(f *File) error {
	fi, err := f.Stat()
	if err == nil {
		err = removeSame(f.path, fi)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openNoFollow opens path without following a symbolic link at its last
// component (O_NOFOLLOW: the open fails with ELOOP).
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW, perm)
}

// isSymlinkErr reports whether err is O_NOFOLLOW's refusal of a link.
func isSymlinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }

// lockFile takes an exclusive, non-blocking flock on f; ErrLocked when
// another open file description holds it. The kernel drops it when the
// process exits, however it exits.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}

// unlockFile drops f's lock, whoever else shares its open file
// description.
func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// probeLock reports whether another process holds f's exclusive lock.
func probeLock(f *os.File) bool {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
