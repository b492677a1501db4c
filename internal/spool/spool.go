// Package spool holds bytes a view must write later, after something it
// can only know at the end (the JSON export's session block, the OTLP/JSON
// envelope): up to a limit in memory, the rest in a private temporary file
// unlinked at once where the system allows it, so an export's memory stays
// bounded whatever the capture's size and a killed export leaves nothing
// behind. It sits beside the views that use it (internal/export/json,
// internal/events/otlp) and knows nothing of what it holds. A Spool is not
// safe for concurrent use.
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

// Spool is an io.Writer that keeps what it is given for WriteTo.
type Spool struct {
	dir    string
	prefix string
	limit  int
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

// Write appends b.
func (s *Spool) Write(b []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(b) <= s.limit {
		return s.mem.Write(b)
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, s.prefix+"-*.spool")
		if err != nil {
			return 0, fmt.Errorf("creating spool: %w", err)
		}
		_ = os.Remove(f.Name()) // where allowed; Remove cleans up elsewhere
		s.file, s.fw = f, bufio.NewWriterSize(f, 256<<10)
		if _, err := s.fw.Write(s.mem.Bytes()); err != nil {
			return 0, fmt.Errorf("writing spool: %w", err)
		}
		s.mem = bytes.Buffer{}
	}
	n, err := s.fw.Write(b)
	if err != nil {
		return n, fmt.Errorf("writing spool: %w", err)
	}
	return n, nil
}

// Spilled reports whether the spool has passed its memory limit.
func (s *Spool) Spilled() bool { return s.file != nil }

// WriteTo writes everything spooled so far to w.
func (s *Spool) WriteTo(w io.Writer) (int64, error) {
	if s.file == nil {
		n, err := w.Write(s.mem.Bytes())
		return int64(n), err
	}
	if err := s.fw.Flush(); err != nil {
		return 0, fmt.Errorf("writing spool: %w", err)
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("rewinding spool: %w", err)
	}
	n, err := io.Copy(w, s.file)
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
	s.file.Close()
	s.file = nil
	if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing spool: %w", err)
	}
	return nil
}
