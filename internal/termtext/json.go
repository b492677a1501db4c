package termtext

import (
	"encoding/binary"
	"io"
	"unicode/utf8"
)

// JSONWriter passes JSON text through to an io.Writer with every DEL, C1
// control, bidi control and invalid UTF-8 byte in it written as a \u
// escape (an invalid byte as \ufffd, the character a decoder would make of
// it). In valid JSON these can only sit inside strings, where the escape
// means the same character, so the JSON still decodes to the same values;
// a terminal showing it, though, sees nothing it would obey. JSON encoders
// already escape C0 controls. A JSONWriter is not safe for concurrent use.
type JSONWriter struct {
	w    io.Writer
	buf  []byte
	tail []byte // the start of a character split across writes
}

// NewJSONWriter returns a JSONWriter writing to w. Call Flush after the
// last Write.
func NewJSONWriter(w io.Writer) *JSONWriter {
	return &JSONWriter{w: w}
}

// Write writes p, escaped, to the underlying writer. It reports len(p)
// when the underlying write succeeds.
func (j *JSONWriter) Write(p []byte) (int, error) {
	if len(j.tail) == 0 && jsonClean(p) {
		if _, err := j.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	in := p
	if len(j.tail) > 0 {
		in = append(j.tail, p...)
		j.tail = j.tail[:0]
	}
	b := j.buf[:0]
	for i := 0; i < len(in); {
		c := in[i]
		if c < 0x7f {
			b = append(b, c)
			i++
			continue
		}
		if !utf8.FullRune(in[i:]) {
			j.tail = append(j.tail, in[i:]...)
			break
		}
		r, n := utf8.DecodeRune(in[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case r >= 0x7f && r <= 0x9f || isBidi(r):
			b = append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		default:
			b = append(b, in[i:i+n]...)
		}
		i += n
	}
	j.buf = b
	if _, err := j.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the last Write held back: the start of a character
// that never ended, as \ufffd.
func (j *JSONWriter) Flush() error {
	if len(j.tail) == 0 {
		return nil
	}
	j.tail = j.tail[:0]
	_, err := j.w.Write([]byte(`\ufffd`))
	return err
}

// jsonClean reports whether p is all ASCII without DEL, so JSONWriter
// passes it as is.
func jsonClean(p []byte) bool {
	// Eight bytes at a time: adding 1 to every byte sets its top bit
	// exactly when it is 0x7f, and carries out of no byte below 0x80.
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	for len(p) >= 8 {
		x := binary.LittleEndian.Uint64(p)
		if (x|(x+ones))&tops != 0 {
			return false
		}
		p = p[8:]
	}
	for _, c := range p {
		if c >= 0x7f {
			return false
		}
	}
	return true
}
