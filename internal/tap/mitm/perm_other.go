//go:build !unix

package mitm

import "os"

// checkKeyMode checks nothing where Unix permission bits mean nothing
// (Windows reports 0666 or 0444 for every file): there the key is as
// private as the state directory under the user's profile.
func checkKeyMode(string, os.FileMode) error { return nil }
