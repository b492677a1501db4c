package capture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Errors returned by Reader.
var (
	// ErrNotCapture means the input does not start with a session record.
	ErrNotCapture = errors.New("not an mcptrail capture")
	// ErrFutureVersion means the capture was written by a newer format.
	ErrFutureVersion = errors.New("capture format is newer than this mcptrail understands")
)

// Damage reports the lines a Reader skipped.
type Damage struct {
	// Torn is set when the last line was incomplete (the writer was killed
	// mid-record); TornBytes is its length.
	Torn      bool
	TornBytes int64
	// Corrupt counts complete lines in the middle of the file that did not
	// decode as records; CorruptLines lists the first few line numbers.
	Corrupt      int
	CorruptLines []int
}

// String describes the damage for a person ("torn last line (24 bytes);
// 1 corrupt line"), "" when there is none. Every view of a capture
// says it the same way.
func (d Damage) String() string {
	var parts []string
	if d.Torn {
		parts = append(parts, fmt.Sprintf("torn last line (%d bytes)", d.TornBytes))
	}
	switch {
	case d.Corrupt == 1:
		parts = append(parts, "1 corrupt line")
	case d.Corrupt > 1:
		parts = append(parts, fmt.Sprintf("%d corrupt lines", d.Corrupt))
	}
	return strings.Join(parts, "; ")
}

// Reader streams records from a capture. Memory is bounded by the longest
// line, not the file size.
//
// A file may hold several sessions (mcptrail --append): a session record
// after the first line starts the next session. Next returns io.EOF at
// that record, as at the end of the input, and NextSession moves past it.
type Reader struct {
	br     *bufio.Reader
	header Record
	line   int
	off    int64 // offset of the next line
	start  int64 // offset of the line readLine returned last
	damage Damage
	err    error // sticky
	fast   fastState
	// next is the session record that ended the current session, when
	// Next met one.
	next *Record
	// corruptLast is set when the last line read was counted as corrupt,
	// of length corruptLen: a damaged line right before a session record
	// is the previous writer's torn tail (see CreateFile's Append).
	corruptLast bool
	corruptLen  int
}

// NewReader reads and checks the session header. It returns ErrNotCapture
// or ErrFutureVersion (wrapped) when the input is not a readable capture.
func NewReader(r io.Reader) (*Reader, error) {
	cr := &Reader{br: bufio.NewReaderSize(r, 1<<20)}
	line, complete, err := cr.readLine()
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: empty input", ErrNotCapture)
		}
		return nil, fmt.Errorf("reading capture header: %w", err)
	}
	// Duplicate member names are accepted as Next and Index accept them, so
	// a session found in the middle of a file opens at its offset too.
	if err := json.Unmarshal(line, &cr.header, jsontext.AllowDuplicateNames(true)); err != nil || cr.header.Type != TypeSession {
		if !complete && len(line) > 0 && bytes.HasPrefix(line, []byte(`{"type":"session"`)) {
			return nil, fmt.Errorf("%w: the session header is torn", ErrNotCapture)
		}
		return nil, fmt.Errorf("%w: the first line is not a session record", ErrNotCapture)
	}
	if err := checkHeader(&cr.header); err != nil {
		return nil, err
	}
	cr.place(&cr.header)
	return cr, nil
}

// checkHeader checks a session record's format version.
func checkHeader(h *Record) error {
	if h.Format > FormatVersion {
		return fmt.Errorf("%w: format %d, this build reads up to %d", ErrFutureVersion, h.Format, FormatVersion)
	}
	if h.Format < 1 {
		return fmt.Errorf("%w: session record has no format version", ErrNotCapture)
	}
	return nil
}

// NextSession moves to the next session in the input, skipping what is
// left of the current one: Header and Damage then describe the new
// session. It returns io.EOF when no session follows, and an error
// wrapping ErrFutureVersion or ErrNotCapture when the next session record
// cannot be read.
func (r *Reader) NextSession() error {
	var rec Record
	for r.next == nil {
		if err := r.Next(&rec); err != nil && r.next == nil {
			return err
		}
	}
	h := r.next
	r.next = nil
	if err := checkHeader(h); err != nil {
		r.err = err
		return err
	}
	r.header, r.damage = *h, Damage{}
	return nil
}

// Header returns the session record.
func (r *Reader) Header() *Record { return &r.header }

// Damage returns what the reader has skipped so far.
func (r *Reader) Damage() Damage { return r.damage }

// Next decodes the next record into rec, which is reset first. It returns
// io.EOF at a clean end. A torn last line is skipped and reported through
// Damage, not as an error; any other error is sticky.
func (r *Reader) Next(rec *Record) error {
	for r.err == nil && r.next == nil {
		line, complete, err := r.readLine()
		if err != nil && len(line) == 0 {
			r.err = err
			break
		}
		*rec = Record{}
		if r.fast.decodeFast(line, rec) {
			r.corruptLast = false
			r.place(rec)
			return nil
		}
		*rec = Record{}
		// The writer embeds frames with duplicate member names as msg (they
		// are valid JSON, and a finding for the store), so accept them here.
		if uerr := json.Unmarshal(line, rec, jsontext.AllowDuplicateNames(true)); uerr != nil || rec.Type == "" {
			r.damaged(len(line), complete)
			continue
		}
		r.place(rec)
		if rec.Type == TypeSession {
			r.sessionEnds(rec)
			*rec = Record{}
			break
		}
		r.corruptLast = false
		return nil
	}
	if r.next != nil {
		return io.EOF
	}
	return r.err
}

// place records where the line just read sits in the file.
func (r *Reader) place(rec *Record) {
	rec.Line, rec.Offset = r.line, r.start
}

// damaged counts a line that did not decode.
func (r *Reader) damaged(n int, complete bool) {
	r.corruptLast = false
	if !complete {
		r.damage.Torn, r.damage.TornBytes = true, int64(n)
		return
	}
	r.damage.Corrupt++
	if len(r.damage.CorruptLines) < 10 {
		r.damage.CorruptLines = append(r.damage.CorruptLines, r.line)
	}
	r.corruptLast, r.corruptLen = true, n
}

// sessionEnds keeps the session record h that ends the current session;
// a damaged line just before it becomes the session's torn tail.
func (r *Reader) sessionEnds(h *Record) {
	hc := *h
	r.next = &hc
	if !r.corruptLast {
		return
	}
	r.corruptLast = false
	r.damage.Corrupt--
	if n := len(r.damage.CorruptLines); n > 0 && r.damage.CorruptLines[n-1] == r.line-1 {
		r.damage.CorruptLines = r.damage.CorruptLines[:n-1]
		if n == 1 {
			r.damage.CorruptLines = nil
		}
	}
	r.damage.Torn, r.damage.TornBytes = true, int64(r.corruptLen)
}

// readLine returns the next line without its newline and whether the
// newline was present.
func (r *Reader) readLine() ([]byte, bool, error) {
	line, err := r.br.ReadSlice('\n')
	r.fast.owned = false
	if errors.Is(err, bufio.ErrBufferFull) {
		line, err = r.readLong(line)
		r.fast.owned = true
	}
	r.line++
	r.start = r.off
	r.off += int64(len(line))
	if err != nil {
		if errors.Is(err, io.EOF) {
			return line, false, io.EOF
		}
		return line, false, fmt.Errorf("reading capture line %d: %w", r.line, err)
	}
	return line[:len(line)-1], true, nil
}

// ReadFile reads the first session of a capture file with ReadAll.
func ReadFile(path string) (*Record, []Record, Damage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, Damage{}, fmt.Errorf("opening capture: %w", err)
	}
	defer f.Close()
	h, recs, dmg, err := ReadAll(f)
	if err != nil {
		return nil, nil, Damage{}, fmt.Errorf("reading capture %s: %w", path, err)
	}
	return h, recs, dmg, nil
}

// ReadAll reads a capture's first session: its header, every record after
// it, and what the reader skipped. It is meant for tests and small captures; views
// stream with a Reader instead.
func ReadAll(in io.Reader) (*Record, []Record, Damage, error) {
	r, err := NewReader(in)
	if err != nil {
		return nil, nil, Damage{}, err
	}
	var recs []Record
	for {
		var rec Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return r.Header(), recs, r.Damage(), nil
		}
		if err != nil {
			return nil, nil, Damage{}, err
		}
		recs = append(recs, rec)
	}
}
