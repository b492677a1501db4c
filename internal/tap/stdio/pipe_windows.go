package stdio

import (
	"fmt"
	"os"
)

// pipe returns an anonymous pipe. Windows anonymous pipes are synchronous:
// a relay blocked in ReadFile is woken by the kernel directly, and, as on
// Unix, Run abandons a relay whose pipe a grandchild keeps open.
func pipe() (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("creating pipe: %w", err)
	}
	return r, w, nil
}
