package clientconfig

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the files named a and b in one step (renamex_np with
// RENAME_SWAP); errors.ErrUnsupported when the file system cannot.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.EINVAL):
		return errors.ErrUnsupported
	}
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
}
