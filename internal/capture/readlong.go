package capture

import (
	"bufio"
	"errors"
)

// readLong finishes a line longer than the buffer, whose first part is
// first: it keeps copies of the buffer-sized parts and joins them once, so
// a line costs about twice its length at the peak, not the four times that
// growing one slice by appending costs. The line is the caller's to keep.
func (r *Reader) readLong(first []byte) ([]byte, error) {
	parts := [][]byte{append([]byte(nil), first...)}
	n := len(first)
	var line []byte
	err := bufio.ErrBufferFull
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			line = append([]byte(nil), line...)
		}
		parts = append(parts, line)
		n += len(line)
	}
	long := make([]byte, 0, n)
	for i := range parts {
		long = append(long, parts[i]...)
		parts[i] = nil
	}
	return long, err
}
