//go:build unix

package mitm

import (
	"fmt"
	"os"
)

// checkKeyMode refuses a key file that users other than its owner may
// read or write: a key others could read is no longer private, and one
// they could write could be swapped for theirs.
func checkKeyMode(path string, mode os.FileMode) error {
	if mode.Perm()&0o077 != 0 {
		return fmt.Errorf("loading CA key: %w: %s has mode %#o; run chmod 600 %s if only you could have read it, or move its directory aside to create a new CA",
			ErrKeyMode, path, mode.Perm(), path)
	}
	return nil
}
