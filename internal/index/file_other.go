//go:build !unix && !windows

package index

import "os"

// openNoFollow opens path. Without O_NOFOLLOW, inspect's Lstat before the
// open is the guard against a link at the last component.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// isSymlinkErr reports false: no open here refuses a link.
func isSymlinkErr(error) bool { return false }

// isSharingViolation reports false: no rename here fails for an open file.
func isSharingViolation(error) bool { return false }

// lockDir does nothing here.
func lockDir(string) (unlock func(), err error) { return func() {}, nil }
