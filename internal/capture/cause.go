package capture

import (
	"errors"
	"io/fs"
	"os"
)

// PathCause returns err's cause without the operation and paths an
// *fs.PathError or *os.LinkError adds, for a message that names the path
// itself; any other error is returned as is. errors.Is(PathCause(err),
// fs.ErrNotExist) still holds when it held for err.
func PathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
