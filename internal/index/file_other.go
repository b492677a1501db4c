//go:build !unix

package index

import "os"

// openNoFollow opens path. Without O_NOFOLLOW, inspect's Lstat before the
// open is the guard against a link at the last component.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// isSymlinkErr reports false: no open here refuses a link.
func isSymlinkErr(error) bool { return false }

// lockDir does nothing. On Windows a file another process holds open
// (SQLite shares it for reading and writing, not for deletion) cannot be
// renamed, so moveAside fails there rather than moving an index in use.
func lockDir(string) (unlock func(), err error) { return func() {}, nil }
