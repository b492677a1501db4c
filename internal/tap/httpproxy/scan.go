package httpproxy

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
// WHATWG rules: lines end in LF, CR or CRLF; data lines are joined with
// LF; a blank line dispatches; comment lines start with ':'. An event whose
// data is empty (the 2025-11-25 priming event) carries no message.
type sseParser struct {
	line    []byte
	data    []byte
	hasData bool
	id      string
	afterCR bool // the last byte was a CR: an LF right after it is not a new line
}

// feed parses b and calls emit with the data of each dispatched event and
// the last event id seen. The data slice is valid only during the call.
func (p *sseParser) feed(b []byte, emit func(data []byte, id string)) {
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
			p.line = append(p.line, b...)
			return
		}
		p.line = append(p.line, b[:i]...)
		p.afterCR = b[i] == '\r'
		b = b[i+1:]
		p.endLine(emit)
	}
}

func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// endLine handles one complete line.
func (p *sseParser) endLine(emit func(data []byte, id string)) {
	line := p.line
	p.line = p.line[:0]
	if len(line) == 0 {
		if p.hasData && len(p.data) > 0 {
			emit(p.data, p.id)
		}
		p.data, p.hasData = p.data[:0], false
		return
	}
	if line[0] == ':' {
		return
	}
	field, value := line, []byte(nil)
	for i, c := range line {
		if c == ':' {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
			break
		}
	}
	switch string(field) {
	case "data":
		if p.hasData {
			p.data = append(p.data, '\n')
		}
		p.data = append(p.data, value...)
		p.hasData = true
	case "id":
		p.id = string(value)
	}
}

// pending reports how many bytes of an undispatched event the parser holds.
func (p *sseParser) pending() int { return len(p.line) + len(p.data) }
