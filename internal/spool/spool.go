// Package spool is mcptrail's one holder of bytes too many to keep in
// memory: up to a limit in memory, the rest in a private temporary file
// (0600) unlinked at once where the system allows it, so that memory stays
// bounded whatever the size and a killed process leaves nothing behind.
// The views use it for what they can write only at the end (the JSON
// export's session block, internal/export/json); the capture writer holds
// a frame line too large for memory in one (capture.Spool, which both
// taps use). It knows nothing of what it holds. A Spool is not safe for
// concurrent use.
package spool

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// DefaultMemory is how much a Spool keeps in memory when New is given 0.
const DefaultMemory = 4 << 20

// fileBuffer is the size of the buffer in front of a spool's file.
const fileBuffer = 256 << 10

// Spool is an io.Writer that keeps what it is given for WriteTo and
// ReadAt.
type Spool struct {
	dir    string
	prefix string
	limit  int
	n      int64 // bytes written
	mem    bytes.Buffer
	file   *os.File // nil until the memory limit is passed
	fw     *bufio.Writer
}

// New returns a Spool that keeps up to memory bytes (DefaultMemory when 0)
// in memory and spills the rest to a file named prefix-*.spool in dir (the
// system's temporary directory when empty).
func New(dir, prefix string, memory int) *Spool {
	if memory <= 0 {
		memory = DefaultMemory
	}
	return &Spool{dir: dir, prefix: prefix, limit: memory}
}

// NewFile returns a Spool that keeps nothing in memory: its file,
// prefix-*.spool in dir (the system's temporary directory when empty), is
// created now, so that a caller that cannot have one knows at once.
func NewFile(dir, prefix string) (*Spool, error) {
	s := &Spool{dir: dir, prefix: prefix}
	if err := s.create(); err != nil {
		return nil, err
	}
	return s, nil
}

// create creates the spill file, removing its name where the system
// allows (Remove cleans up elsewhere).
func (s *Spool) create() error {
	f, err := os.CreateTemp(s.dir, s.prefix+"-*.spool")
	if err != nil {
		return fmt.Errorf("creating spool: %w", err)
	}
	_ = os.Remove(f.Name())
	s.file, s.fw = f, bufio.NewWriterSize(f, fileBuffer)
	return nil
}

// Write appends b.
func (s *Spool) Write(b []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(b) <= s.limit {
		s.n += int64(len(b))
		return s.mem.Write(b)
	}
	if s.file == nil {
		if err := s.create(); err != nil {
			return 0, err
		}
		if _, err := s.fw.Write(s.mem.Bytes()); err != nil {
			return 0, fmt.Errorf("writing spool: %w", err)
		}
		s.mem = bytes.Buffer{}
	}
	n, err := s.fw.Write(b)
	s.n += int64(n)
	if err != nil {
		return n, fmt.Errorf("writing spool: %w", err)
	}
	return n, nil
}

// Len returns how many bytes were written.
func (s *Spool) Len() int64 { return s.n }

// Spilled reports whether the spool keeps its bytes in its file.
func (s *Spool) Spilled() bool { return s.file != nil }

// ReadAt reads len(p) bytes from offset off of what was written (the
// io.ReaderAt contract).
func (s *Spool) ReadAt(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if s.file == nil {
		if off >= int64(s.mem.Len()) {
			return 0, io.EOF
		}
		n := copy(p, s.mem.Bytes()[off:])
		if n < len(p) {
			return n, io.EOF
		}
		return n, nil
	}
	if err := s.fw.Flush(); err != nil {
		return 0, fmt.Errorf("writing spool: %w", err)
	}
	n, err := s.file.ReadAt(p, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, fmt.Errorf("reading spool: %w", err)
	}
	return n, err
}

// WriteTo writes everything spooled so far to w.
func (s *Spool) WriteTo(w io.Writer) (int64, error) {
	if s.file == nil {
		n, err := w.Write(s.mem.Bytes())
		return int64(n), err
	}
	if err := s.fw.Flush(); err != nil {
		return 0, fmt.Errorf("writing spool: %w", err)
	}
	n, err := io.Copy(w, io.NewSectionReader(s.file, 0, s.n))
	if err != nil {
		return n, fmt.Errorf("copying spool: %w", err)
	}
	return n, nil
}

// Remove closes and deletes the spill file, if any. It is safe to call
// more than once.
func (s *Spool) Remove() error {
	if s.file == nil {
		return nil
	}
	name := s.file.Name()
	err := s.file.Close()
	s.file = nil
	if rerr := os.Remove(name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return fmt.Errorf("removing spool: %w", rerr)
	}
	if err != nil {
		return fmt.Errorf("closing spool: %w", err)
	}
	return nil
}
