//go:build !unix && !windows

package capture

import "os"

// openNoFollow opens path. Without O_NOFOLLOW, CreateFile's Lstat check
// before the open is the only guard against a link at the last component.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// isSymlinkErr reports false: no open here refuses a link.
func isSymlinkErr(error) bool { return false }

// lockFile does nothing: there is no advisory lock here, so two writers
// on one path are not detected on this platform.
func lockFile(*os.File) error { return nil }

// unlockFile does nothing (no lock to drop).
func unlockFile(*os.File) {}

// probeLock reports false (no lock to probe).
func probeLock(*os.File) bool { return false }
