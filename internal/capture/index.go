package capture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Session locates one session in a capture file that may hold several.
type Session struct {
	// Header is the session record.
	Header Record
	// Offset is the byte offset of the session record; Line is its line
	// number, from 1.
	Offset int64
	Line   int
}

// Index lists the sessions in a capture, in file order, reading it once
// without decoding frames. A first line that is not a session record is
// ErrNotCapture; a later session record that does not decode as one is
// left to the Reader, which reports it as damage.
func Index(in io.Reader) ([]Session, error) {
	br := bufio.NewReaderSize(in, 1<<20)
	var out []Session
	var off int64
	for line := 1; ; line++ {
		b, n, err := nextLine(br)
		// The 'o' of "session" is rarer in JSON text than its '"'.
		if len(b) > 0 && (line == 1 || jsonraw.ContainsAt(b, `"session"`, 6)) {
			var h Record
			if json.Unmarshal(bytes.TrimRight(b, "\r\n"), &h, jsontext.AllowDuplicateNames(true)) == nil && h.Type == TypeSession {
				out = append(out, Session{Header: h, Offset: off, Line: line})
			}
		}
		if line == 1 && len(out) == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("reading capture header: %w", err)
			}
			return nil, fmt.Errorf("%w: the first line is not a session record", ErrNotCapture)
		}
		off += n
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("indexing capture line %d: %w", line, err)
		}
	}
}

// nextLine returns a line for Index: whole when it may be a session
// record (short, or starting like one), else only its first bytes, so a
// huge frame is skipped without being held; n is the line's full length.
func nextLine(br *bufio.Reader) ([]byte, int64, error) {
	b, err := br.ReadSlice('\n')
	n := int64(len(b))
	if !errors.Is(err, bufio.ErrBufferFull) {
		return b, n, err
	}
	keep := bytes.HasPrefix(b, []byte(`{"type":"session"`))
	var long []byte
	if keep {
		long = append(long, b...)
	}
	for errors.Is(err, bufio.ErrBufferFull) {
		b, err = br.ReadSlice('\n')
		n += int64(len(b))
		if keep {
			long = append(long, b...)
		}
	}
	if !keep {
		return nil, n, err
	}
	return long, n, err
}

// startsAt makes a Reader opened at session s's offset count lines and
// offsets of the whole file.
func (r *Reader) startsAt(s *Session) {
	r.line += s.Line - 1
	r.off += s.Offset
	r.start += s.Offset
	r.place(&r.header)
}

// OpenSession returns a Reader for the session s of the capture in, which
// Index listed: it seeks to the session record, and Damage reports line
// numbers of the whole file.
func OpenSession(in io.ReadSeeker, s *Session) (*Reader, error) {
	if _, err := in.Seek(s.Offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("seeking to session %s: %w", s.Header.SessionID, err)
	}
	r, err := NewReader(in)
	if err != nil {
		return nil, err
	}
	r.startsAt(s)
	return r, nil
}
