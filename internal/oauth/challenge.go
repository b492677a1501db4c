package oauth

import (
	"errors"
	"fmt"
	"strings"
)

// Challenge is one challenge of a WWW-Authenticate header (RFC 9110
// §11.6.1): an auth scheme with either a token68 or auth-params.
type Challenge struct {
	// Scheme is the auth scheme as sent ("Bearer"); compare it
	// case-insensitively.
	Scheme string
	// Token68 is the challenge's token68, "" when it has params or none.
	Token68 string
	// Params maps each auth-param's name, lower-cased (names are
	// case-insensitive), to its value, unquoted; nil when there are none.
	// A repeated name keeps its first value.
	Params map[string]string
}

// ErrChallenge is wrapped by the errors ParseChallenges returns.
var ErrChallenge = errors.New("malformed WWW-Authenticate")

// ParseChallenges parses a WWW-Authenticate field value: a comma-separated
// list of challenges, each "scheme [token68 | #auth-param]" (RFC 9110
// §11.6.1, §5.6.1 for the list, §5.6.4 for quoted strings). On malformed
// input it returns the challenges read before the fault and an error
// wrapping ErrChallenge.
func ParseChallenges(v string) ([]Challenge, error) {
	p := &challengeParser{s: v}
	var out []Challenge
	for {
		p.skipListSep()
		if p.done() {
			return out, nil
		}
		c, err := p.challenge()
		if err != nil {
			return out, fmt.Errorf("%w at byte %d: %s", ErrChallenge, p.i, err)
		}
		out = append(out, c)
	}
}

type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) done() bool { return p.i >= len(p.s) }

func (p *challengeParser) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.i]
}

// skipOWS skips optional whitespace (SP and HTAB).
func (p *challengeParser) skipOWS() {
	for !p.done() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// skipListSep skips whitespace and empty list elements (RFC 9110 §5.6.1:
// recipients accept ", ," and leading commas).
func (p *challengeParser) skipListSep() {
	for !p.done() && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

// token reads 1*tchar.
func (p *challengeParser) token() string {
	start := p.i
	for !p.done() && isTchar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func isTchar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func isToken68(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/", c) >= 0
}

// challenge reads one challenge, the list separators before it skipped.
func (p *challengeParser) challenge() (Challenge, error) {
	c := Challenge{Scheme: p.token()}
	if c.Scheme == "" {
		return c, fmt.Errorf("want an auth scheme, got %q", p.peek())
	}
	if p.done() || p.peek() == ',' {
		return c, nil
	}
	if p.peek() != ' ' && p.peek() != '\t' {
		return c, fmt.Errorf("want a space after scheme %q", c.Scheme)
	}
	p.skipOWS()
	if p.done() || p.peek() == ',' {
		return c, nil
	}
	if t, ok := p.token68(); ok {
		c.Token68 = t
		return c, nil
	}
	return c, p.params(&c)
}

// token68 reads a token68 that ends the challenge (followed by OWS and a
// comma or the end); otherwise it reads nothing.
func (p *challengeParser) token68() (string, bool) {
	j := p.i
	for j < len(p.s) && isToken68(p.s[j]) {
		j++
	}
	if j == p.i {
		return "", false
	}
	for j < len(p.s) && p.s[j] == '=' {
		j++
	}
	k := j
	for k < len(p.s) && (p.s[k] == ' ' || p.s[k] == '\t') {
		k++
	}
	if k < len(p.s) && p.s[k] != ',' {
		return "", false // "name = value": an auth-param
	}
	t := p.s[p.i:j]
	p.i = k
	return t, true
}

// params reads #auth-param up to the end or the next challenge.
func (p *challengeParser) params(c *Challenge) error {
	for {
		name := p.token()
		if name == "" {
			return fmt.Errorf("want an auth-param name, got %q", p.peek())
		}
		p.skipOWS()
		if p.peek() != '=' {
			return fmt.Errorf("want '=' after auth-param %q", name)
		}
		p.i++
		p.skipOWS()
		val, err := p.value()
		if err != nil {
			return err
		}
		if c.Params == nil {
			c.Params = map[string]string{}
		}
		if _, dup := c.Params[strings.ToLower(name)]; !dup {
			c.Params[strings.ToLower(name)] = val
		}
		p.skipOWS()
		if p.done() {
			return nil
		}
		if p.peek() != ',' {
			return fmt.Errorf("want ',' after auth-param %q", name)
		}
		p.skipListSep()
		if p.done() || !p.paramAhead() {
			return nil // the next challenge (or the end) follows
		}
	}
}

// paramAhead reports whether an auth-param (token BWS "=") starts at the
// cursor, rather than the scheme of the next challenge.
func (p *challengeParser) paramAhead() bool {
	j := p.i
	for j < len(p.s) && isTchar(p.s[j]) {
		j++
	}
	if j == p.i {
		return false
	}
	for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t') {
		j++
	}
	return j < len(p.s) && p.s[j] == '='
}

// value reads a token or a quoted-string.
func (p *challengeParser) value() (string, error) {
	if p.peek() != '"' {
		v := p.token()
		if v == "" {
			return "", fmt.Errorf("want a token or quoted-string, got %q", p.peek())
		}
		return v, nil
	}
	p.i++
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s) && qdtext(p.s[p.i+1]):
			b.WriteByte(p.s[p.i+1]) // quoted-pair
			p.i += 2
		case c != '\\' && qdtext(c):
			b.WriteByte(c)
			p.i++
		default:
			return "", fmt.Errorf("control byte %#x in quoted-string", c)
		}
	}
	return "", errors.New("unterminated quoted-string")
}

// qdtext reports whether c may stand in a quoted-string (HTAB, SP,
// VCHAR, obs-text).
func qdtext(c byte) bool { return c == '\t' || c >= 0x20 && c != 0x7f }

// String renders the challenge in canonical form (params sorted by name,
// values quoted); ParseChallenges reads it back as c.
func (c Challenge) String() string {
	var b strings.Builder
	b.WriteString(c.Scheme)
	if c.Token68 != "" {
		b.WriteString(" " + c.Token68)
	}
	for i, k := range sortedKeys(c.Params) {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		b.WriteString(k + "=" + quote(c.Params[k]))
	}
	return b.String()
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := range len(s) {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// BearerChallenge returns the first challenge of v whose scheme is Bearer
// (case-insensitively), and whether there is one. A malformed header
// yields the Bearer challenge read before the fault, if any.
func BearerChallenge(v string) (Challenge, bool) {
	cs, _ := ParseChallenges(v)
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, "Bearer") {
			return c, true
		}
	}
	return Challenge{}, false
}
