package jsonexport

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// spool holds the encoded frames until the session object, which needs the
// whole capture, has been written before them. It keeps up to memLimit
// bytes in memory and spills the rest to a private temporary file, so the
// export's memory stays bounded whatever the capture's size.
type spool struct {
	dir      string
	memLimit int
	mem      bytes.Buffer
	file     *os.File
	fw       *bufio.Writer
}

func (s *spool) Write(b []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(b) <= s.memLimit {
		return s.mem.Write(b)
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, ".mcptrail-export-*.spool")
		if err != nil {
			return 0, fmt.Errorf("creating export spool: %w", err)
		}
		// Unlinked at once where the system allows it, so that a killed
		// export leaves nothing behind; remove cleans up elsewhere.
		_ = os.Remove(f.Name())
		s.file, s.fw = f, bufio.NewWriterSize(f, 256<<10)
		if _, err := s.fw.Write(s.mem.Bytes()); err != nil {
			return 0, fmt.Errorf("writing export spool: %w", err)
		}
		s.mem = bytes.Buffer{}
	}
	n, err := s.fw.Write(b)
	if err != nil {
		return n, fmt.Errorf("writing export spool: %w", err)
	}
	return n, nil
}

// copyTo writes everything spooled to w.
func (s *spool) copyTo(w io.Writer) error {
	if s.file == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if err := s.fw.Flush(); err != nil {
		return fmt.Errorf("writing export spool: %w", err)
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("rewinding export spool: %w", err)
	}
	if _, err := io.Copy(w, s.file); err != nil {
		return fmt.Errorf("copying export spool: %w", err)
	}
	return nil
}

// remove deletes the spill file, if any.
func (s *spool) remove() error {
	if s.file == nil {
		return nil
	}
	name := s.file.Name()
	s.file.Close()
	s.file = nil
	if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing export spool: %w", err)
	}
	return nil
}
