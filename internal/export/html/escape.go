package htmlexport

import (
	"io"
	"unicode/utf8"
)

// scriptWriter passes JSON text through to an io.Writer so that it can sit
// inside a <script type="application/json"> element: '<', '>' and '&' (so
// no "</script" or "<!--" can close or change the element), U+2028 and
// U+2029, bidi controls, DEL and C1 controls are written as \u escapes, and
// an invalid UTF-8 byte as \ufffd. In the JSON this package writes, every
// such character can only sit inside a string, where the escape means the
// same character, so JSON.parse reads the same values. It holds back the
// start of a character split across writes; Flush writes it. A
// scriptWriter is not safe for concurrent use.
type scriptWriter struct {
	w    io.Writer
	buf  []byte
	tail []byte // the start of a character split across writes
}

// newScriptWriter returns a scriptWriter writing to w.
func newScriptWriter(w io.Writer) *scriptWriter { return &scriptWriter{w: w} }

// Write writes p, escaped. It reports len(p) when the underlying write
// succeeds.
func (s *scriptWriter) Write(p []byte) (int, error) {
	if len(s.tail) == 0 && scriptClean(p) {
		if _, err := s.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	in := p
	if len(s.tail) > 0 {
		in = append(s.tail, p...)
		s.tail = nil
	}
	b := s.buf[:0]
	for i := 0; i < len(in); {
		c := in[i]
		if c < utf8.RuneSelf {
			if c == '<' || c == '>' || c == '&' || c == 0x7f {
				b = appendU(b, rune(c))
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		if !utf8.FullRune(in[i:]) {
			s.tail = append([]byte(nil), in[i:]...)
			break
		}
		r, n := utf8.DecodeRune(in[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case unsafeRune(r):
			b = appendU(b, r)
		default:
			b = append(b, in[i:i+n]...)
		}
		i += n
	}
	s.buf = b
	if _, err := s.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the last Write held back, the start of a character
// that never ended, as \ufffd.
func (s *scriptWriter) Flush() error {
	if len(s.tail) == 0 {
		return nil
	}
	s.tail = nil
	_, err := io.WriteString(s.w, `\ufffd`)
	return err
}

// scriptClean reports whether p is ASCII with nothing to escape, so that
// scriptWriter passes it as is.
func scriptClean(p []byte) bool {
	for _, c := range p {
		if c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// unsafeRune reports whether r is written escaped: a C1 control, a line or
// paragraph separator (which ended JavaScript strings before ES2019), or a
// bidi control that would reorder the text around it.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || bidi(r)
}

// bidi reports whether r is a bidi control: ALM, LRM, RLM, the embeddings
// and overrides U+202A..U+202E and the isolates U+2066..U+2069.
func bidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

const hexDigits = "0123456789abcdef"

// appendU appends r (at most U+FFFF) as a JSON \u escape.
func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// appendQuote appends s as a JSON string, escaping only what JSON requires
// ('"', '\\' and C0 controls); the scriptWriter it goes through escapes the
// rest.
func appendQuote[T ~string | ~[]byte](b []byte, s T) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = appendU(b, rune(c))
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
