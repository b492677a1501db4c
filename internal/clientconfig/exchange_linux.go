package clientconfig

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the files named a and b in one step (renameat2 with
// RENAME_EXCHANGE); errors.ErrUnsupported when the file system cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return errors.ErrUnsupported
	}
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
}
