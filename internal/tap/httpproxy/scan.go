package httpproxy

import (
	"bytes"
	"errors"
	"io"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// jsonScan finds where the first JSON object or array in a stream ends,
// without buffering: it tracks nesting, strings and escapes byte by byte.
// A body that does not start with '{' or '[' (after whitespace) never
// completes early; its frame is reserved when the body ends.
type jsonScan struct {
	started bool
	off     bool // not an object or array: give up
	done    bool
	depth   int
	inStr   bool
	esc     bool
}

// feed scans b and reports whether the value completed within it.
func (s *jsonScan) feed(b []byte) bool {
	if s.done || s.off {
		return false
	}
	for _, c := range b {
		if !s.started {
			switch c {
			case ' ', '\t', '\r', '\n':
				continue
			case '{', '[':
				s.started, s.depth = true, 1
				continue
			}
			s.off = true
			return false
		}
		switch {
		case s.inStr:
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inStr = false
			}
		case c == '"':
			s.inStr = true
		case c == '{' || c == '[':
			s.depth++
		case c == '}' || c == ']':
			s.depth--
			if s.depth == 0 {
				s.done = true
				return true
			}
		}
	}
	return false
}

// sseParser splits a text/event-stream into events incrementally, by the
// WHATWG rules: one byte order mark at the start is dropped; lines end in
// LF, CR or CRLF; data lines are joined with LF; a blank line dispatches;
// comment lines start with ':'; an id holding NUL is ignored; an event
// field sets the type of the event being read, which dispatch resets. An
// event whose data is empty (the 2025-11-25 priming event) carries no
// message.
type sseParser struct {
	// bom counts the bytes of a byte order mark matched at the start of
	// the stream; begun is set once the start is past.
	bom     int
	begun   bool
	line    []byte
	data    []byte
	hasData bool
	id      string
	// event is the value of the event's last "event:" field, "" when it
	// had none (a "message" event).
	event   string
	afterCR bool // the last byte was a CR: an LF right after it is not a new line

	// Large events. Once a data line grows past capture.SpoolAbove, the
	// event's data goes to a spool from newSpool (nil: everything stays in
	// memory), and the event is dispatched to emitSpool instead of emit.
	newSpool  func() *capture.Spool
	emitSpool func(sp *capture.Spool, id, event string)
	spool     *capture.Spool // the event's data so far, when spooled
	streaming bool           // the current line is a data line going to spool
	skipping  bool           // the current line is a long line of no interest
}

// feed parses b and calls emit with the data of each dispatched event, the
// last event id seen and the event's type ("" when it named none). The
// data slice is valid only during the call.
func (p *sseParser) feed(b []byte, emit func(data []byte, id, event string)) {
	if !p.begun {
		b = p.skipBOM(b)
	}
	for len(b) > 0 {
		if p.afterCR {
			p.afterCR = false
			if b[0] == '\n' {
				b = b[1:]
				continue
			}
		}
		i := indexEOL(b)
		if i < 0 {
			p.partial(b)
			return
		}
		p.partial(b[:i])
		p.afterCR = b[i] == '\r'
		b = b[i+1:]
		if p.streaming || p.skipping {
			p.streaming, p.skipping = false, false
			continue
		}
		p.endLine(emit)
	}
}

// ReadEvents reads an SSE stream to its end and calls each with the data
// of every event that carries some, by the rules sseParser follows; each
// owns the slice it is given. An event the end of the stream cuts short
// is dropped.
func ReadEvents(r io.Reader, each func(data []byte)) error {
	var p sseParser
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		p.feed(buf[:n], func(d []byte, _, _ string) { each(bytes.Clone(d)) })
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// utf8BOM is the byte order mark a stream may start with.
const utf8BOM = "\uFEFF"

// skipBOM drops a byte order mark at the start of the stream, which may
// arrive over several reads, and returns what of b is left to parse.
func (p *sseParser) skipBOM(b []byte) []byte {
	for len(b) > 0 && p.bom < len(utf8BOM) {
		if b[0] != utf8BOM[p.bom] {
			// Not a mark: the bytes taken for one are the line's start.
			p.begun = true
			p.partial([]byte(utf8BOM[:p.bom]))
			return b
		}
		p.bom++
		b = b[1:]
	}
	p.begun = p.bom == len(utf8BOM)
	return b
}

// partial adds b to the line being read. A data line that grows past
// capture.SpoolAbove moves, with the event's data so far, to a spool; any
// other line that long is of no use to the capture and is skipped.
func (p *sseParser) partial(b []byte) {
	switch {
	case p.streaming:
		_, _ = p.spool.Write(b) // an error is sticky: WriteSpooled reports it
		return
	case p.skipping:
		return
	}
	p.line = append(p.line, b...)
	if len(p.line) <= capture.SpoolAbove || p.newSpool == nil {
		return
	}
	field, value := splitField(p.line)
	if string(field) != "data" {
		p.line, p.skipping = nil, true
		return
	}
	if p.spool == nil {
		if p.spool = p.newSpool(); p.spool == nil {
			return // no spool: keep it in memory
		}
		_, _ = p.spool.Write(p.data)
	}
	p.appendData(value)
	p.line, p.data, p.streaming = nil, nil, true
}

// appendData adds a data line's value to the event's data.
func (p *sseParser) appendData(value []byte) {
	if p.spool != nil {
		if p.hasData {
			_, _ = p.spool.Write([]byte{'\n'})
		}
		_, _ = p.spool.Write(value)
	} else {
		if p.hasData {
			p.data = append(p.data, '\n')
		}
		p.data = append(p.data, value...)
	}
	p.hasData = true
}

func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// splitField splits a line into its field name and value.
func splitField(line []byte) (field, value []byte) {
	for i, c := range line {
		if c == ':' {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
			return field, value
		}
	}
	return line, nil
}

// endLine handles one complete line.
func (p *sseParser) endLine(emit func(data []byte, id, event string)) {
	line := p.line
	p.line = p.line[:0]
	if len(line) == 0 {
		p.dispatch(emit)
		return
	}
	if line[0] == ':' {
		return
	}
	field, value := splitField(line)
	switch string(field) {
	case "data":
		p.appendData(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.id = string(value)
		}
	case "event":
		p.event = string(value)
	}
}

// dispatch ends an event at a blank line.
func (p *sseParser) dispatch(emit func(data []byte, id, event string)) {
	if sp := p.spool; sp != nil {
		p.spool = nil
		if p.hasData && sp.Len() > 0 {
			p.emitSpool(sp, p.id, p.event)
		} else {
			_ = sp.Close()
		}
	} else if p.hasData && len(p.data) > 0 {
		emit(p.data, p.id, p.event)
	}
	p.data, p.hasData, p.event = p.data[:0], false, ""
}

// pending reports how many bytes of an undispatched event the parser holds.
func (p *sseParser) pending() int {
	n := len(p.line) + len(p.data)
	if p.spool != nil {
		n += int(p.spool.Len())
	}
	return n
}

// discard drops an undispatched event's spool.
func (p *sseParser) discard() {
	if p.spool != nil {
		_ = p.spool.Close()
		p.spool = nil
	}
}
