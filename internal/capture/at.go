package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrNoRecord is returned by ReadAt when the bytes at the offset are not
// a whole record line.
var ErrNoRecord = errors.New("no record at this offset")

// ReadAt decodes the record whose line starts at byte off of a capture:
// the Offset a Reader gave it. It reads up to the line's newline, so that
// a view can fetch one frame of a large capture without holding the rest.
// The record's Offset is off; its Line is zero (unknown). ReadAt is safe
// for concurrent use when r is.
func ReadAt(r io.ReaderAt, off int64) (Record, error) {
	line, err := lineAt(r, off)
	if err != nil {
		return Record{}, err
	}
	var rec Record
	var st fastState
	st.owned = true // line is ours: values may share it
	if !st.decodeFast(line, &rec) {
		rec = Record{}
		if err := json.Unmarshal(line, &rec, jsontext.AllowDuplicateNames(true)); err != nil || rec.Type == "" {
			return Record{}, fmt.Errorf("reading the record at offset %d: %w", off, ErrNoRecord)
		}
	}
	rec.Offset = off
	return rec, nil
}

// lineAt returns the line starting at off, without its newline.
func lineAt(r io.ReaderAt, off int64) ([]byte, error) {
	buf := make([]byte, 0, 4<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.ReadAt(buf[len(buf):cap(buf)], off+int64(len(buf)))
		if i := bytes.IndexByte(buf[len(buf):len(buf)+n], '\n'); i >= 0 {
			return buf[:len(buf)+i], nil
		}
		buf = buf[:len(buf)+n]
		switch {
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("reading the record at offset %d: %w", off, ErrNoRecord)
		case err != nil:
			return nil, fmt.Errorf("reading the record at offset %d: %w", off, err)
		}
	}
}
