//go:build !linux && !darwin

package clientconfig

import "errors"

// exchange would swap two files in one step; this system cannot, so
// Replace renames after its last check.
func exchange(a, b string) error {
	return errors.ErrUnsupported
}
