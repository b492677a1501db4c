package redact

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ohler55/ojg/jp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Placeholder replaces every redacted value.
const Placeholder = capture.RedactedValue

// quotedPlaceholder is Placeholder as a JSON string.
const quotedPlaceholder = `"` + Placeholder + `"`

// SecretKeys returns the Secrets preset: common names of members that hold
// credentials, lower-case (keys match ignoring case).
func SecretKeys() []string {
	return []string{
		"token", "access_token", "accesstoken", "refresh_token", "refreshtoken",
		"id_token", "idtoken", "auth_token", "authtoken", "session_token", "sessiontoken",
		"api_key", "apikey", "api-key", "x-api-key",
		"password", "passwd", "passphrase",
		"secret", "client_secret", "clientsecret", "secret_key", "secretkey",
		"private_key", "privatekey",
		"authorization", "proxy-authorization", "cookie", "set-cookie", "credentials",
	}
}

// errNoRoot is why a JSONPath that does not start at the root is refused.
var errNoRoot = errors.New("a JSONPath starts with $")

// Options say what to redact. The zero value redacts nothing.
type Options struct {
	// Keys are member names whose values are replaced, matched ignoring
	// case at any depth.
	Keys []string
	// Secrets adds the SecretKeys preset to Keys.
	Secrets bool
	// Paths are JSONPath expressions (github.com/ohler55/ojg/jp syntax).
	Paths []string
	// Values are RE2 expressions whose matches inside strings are replaced.
	Values []*regexp.Regexp
	// Answers replaces the values of elicitation answers' content.
	Answers bool
}

// Empty reports whether o redacts nothing.
func (o *Options) Empty() bool {
	return o == nil || len(o.Keys) == 0 && !o.Secrets && len(o.Paths) == 0 && len(o.Values) == 0 && !o.Answers
}

// Redactor applies Options to the records of one session at a time.
type Redactor struct {
	keys   map[string]struct{} // lower-case keys
	minKey int
	maxKey int
	// firsts and lasts hold, per key length, a bit per first and last
	// byte of the keys of that length (folded to 6 bits), for maybeKey.
	firsts   [64]uint64
	lasts    [64]uint64
	wideKeys bool // a key holds a byte beyond ASCII
	// suffixes has the bit (suffixHash) of the last four bytes of each
	// key, and of the names answer redaction looks for, folded as
	// scanPlain folds; plain is false when a key is shorter than four
	// bytes or not ASCII, and scanPlain cannot be used.
	suffixes [16]uint64
	plain    bool
	argvKeys map[string]struct{} // keys lower-cased with - as _
	paths    []jp.Expr
	values   *regexp.Regexp // the Values, as one alternation
	textKeys *regexp.Regexp // "key": value in text
	forms    forms          // the other text forms (forms.go)
	// sepless holds the keys lower-cased without - and _, for header
	// names (headerKey).
	sepless map[string]struct{}
	answers bool
	// filters are the NameFilters of Names, by direction (0 client to
	// server, 1 server to client).
	filters [2]*capture.NameFilter

	// elicits holds the ids (raw JSON) of the server elicitation/create
	// requests seen in this session.
	elicits map[string]struct{}
	walk    walker
}

// ErrEmptyKey is returned by New for a key that is the empty string.
var ErrEmptyKey = errors.New("empty key")

// New compiles opts. It returns ErrEmptyKey for an empty key, and an
// error naming a JSONPath that does not parse or does not start with $.
func New(opts *Options) (*Redactor, error) {
	r := &Redactor{keys: map[string]struct{}{}, argvKeys: map[string]struct{}{}, sepless: map[string]struct{}{}, minKey: 1 << 30}
	if opts == nil {
		opts = &Options{}
	}
	keys := opts.Keys
	if opts.Secrets {
		keys = append(SecretKeys(), keys...)
	}
	for _, k := range keys {
		if strings.TrimSpace(k) == "" {
			return nil, ErrEmptyKey
		}
		lk := strings.ToLower(k)
		r.keys[lk] = struct{}{}
		r.argvKeys[strings.ReplaceAll(lk, "-", "_")] = struct{}{}
		r.sepless[sepless(lk)] = struct{}{}
		r.minKey, r.maxKey = min(r.minKey, len(lk)), max(r.maxKey, len(lk))
		r.addMask(lk)
		r.wideKeys = r.wideKeys || !isASCII(k)
	}
	r.plain = r.addSuffixes()
	if len(r.keys) > 0 {
		var alt []string
		for k := range r.keys {
			alt = append(alt, regexp.QuoteMeta(k))
		}
		r.textKeys = regexp.MustCompile(`(?i)("(?:` + strings.Join(alt, "|") + `)"\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\]\s]+)`)
	}
	r.forms = newForms(len(r.keys) > 0)
	for _, p := range opts.Paths {
		if !strings.HasPrefix(p, "$") {
			return nil, fmt.Errorf("parsing JSONPath %q: %w", p, errNoRoot)
		}
		x, err := jp.ParseString(p)
		if err != nil {
			return nil, fmt.Errorf("parsing JSONPath %q: %w", p, err)
		}
		r.paths = append(r.paths, x)
	}
	if len(opts.Values) > 0 {
		alt := make([]string, len(opts.Values))
		for i, re := range opts.Values {
			alt[i] = "(?:" + re.String() + ")"
		}
		r.values = regexp.MustCompile(strings.Join(alt, "|"))
	}
	r.answers = opts.Answers
	r.walk.r = r
	r.filters[0], r.filters[1] = r.nameFilter(capture.C2S), r.nameFilter(capture.S2C)
	return r, nil
}

// addMask records k's first and last bytes for maybeKey; keys longer
// than the masks make every name of their length a candidate.
func (r *Redactor) addMask(k string) {
	n := len(k)
	if n >= len(r.firsts) {
		for i := range r.firsts {
			r.firsts[i], r.lasts[i] = ^uint64(0), ^uint64(0)
		}
		return
	}
	r.firsts[n] |= 1 << ((k[0] | 0x20) & 63)
	r.lasts[n] |= 1 << ((k[n-1] | 0x20) & 63)
}

// addSuffixes fills r.suffixes and reports whether every key suits
// scanPlain.
func (r *Redactor) addSuffixes() bool {
	if r.wideKeys {
		return false
	}
	for _, k := range append(slices.Collect(maps.Keys(r.keys)), "inputResponses", "action", "content") {
		if len(k) < 4 {
			return false
		}
		h := suffixHash(binary.LittleEndian.Uint32([]byte(k[len(k)-4:])) | 0x20202020)
		r.suffixes[h/64] |= 1 << (h % 64)
	}
	return true
}

// Names returns a filter that selects the member names Line looks for in a
// frame travelling in dir, or nil when Line may change a frame whatever its
// member names (value and path rules, answers from the server). A JSON
// frame none of whose names the filter selects is one Line leaves alone;
// the capture writer checks this in the pass that validates the frame
// (capture.Writer.WriteLineUnselected).
func (r *Redactor) Names(dir capture.Dir) *capture.NameFilter {
	if dir == capture.S2C {
		return r.filters[1]
	}
	return r.filters[0]
}

// nameFilter builds the filter Names returns for dir.
func (r *Redactor) nameFilter(dir capture.Dir) *capture.NameFilter {
	if r.values != nil || len(r.paths) > 0 || r.wideKeys || r.answers && dir != capture.C2S {
		return nil
	}
	names := slices.Collect(maps.Keys(r.keys))
	answers := r.answers && dir == capture.C2S
	if answers {
		names = append(names, "inputResponses", "action", "content")
	}
	return capture.NewNameFilter(names, func(name []byte) bool {
		return r.isKey(name) || answers && isAnswerName(name)
	})
}

// isAnswerName reports whether answer redaction acts under a member name.
func isAnswerName(name []byte) bool {
	switch string(name) {
	case "inputResponses", "action", "content":
		return true
	}
	return false
}

// Reset forgets the per-session state, for the next session.
func (r *Redactor) Reset() { clear(r.elicits) }

// Record redacts rec in place and reports whether it changed anything. A
// session header is always marked Redacted; any other record only when
// changed.
func (r *Redactor) Record(rec *capture.Record) bool {
	changed := false
	switch rec.Type {
	case capture.TypeSession:
		changed = r.header(rec)
		rec.Redacted = true
		return changed
	case capture.TypeFrame:
		changed = r.frame(rec)
	case capture.TypeStderr:
		if rec.Text != "" {
			rec.Text, changed = r.text(rec.Text, true)
		}
		if rec.B64 != nil {
			changed = r.binaryRecord(rec) || changed
		}
	case capture.TypeExchange, capture.TypeTunnel:
		changed = r.exchange(rec)
	case capture.TypeNote:
		// A note may quote a URL or a command line.
		if rec.Text != "" {
			rec.Text, changed = r.text(rec.Text, true)
		}
	}
	if changed {
		rec.Redacted = true
	}
	return changed
}

// frame redacts a frame record's payload and HTTP envelope.
func (r *Redactor) frame(rec *capture.Record) bool {
	changed := false
	if len(rec.Msg) > 0 && r.mayMatch(rec.Msg, rec.Dir) {
		// Msg is valid JSON (the capture's contract); were it not, it is
		// left alone rather than turned into text.
		if out, c, ok := r.json(rec.Msg, rec.Dir); ok && c {
			rec.Msg, changed = jsontext.Value(out), true
		}
	}
	if rec.Raw != "" {
		if out, c := r.Line(capture.TypeFrame, rec.Dir, []byte(rec.Raw)); c {
			rec.Raw, changed = string(out), true
		}
	}
	if rec.Text != "" {
		var c bool
		rec.Text, c = r.text(rec.Text, textual(capture.TypeFrame, rec.Text))
		changed = changed || c
	}
	if rec.B64 != nil {
		changed = r.binaryRecord(rec) || changed
	}
	if rec.HTTP != nil {
		changed = r.headers(rec.HTTP) || changed
	}
	return changed
}

// Line redacts one line as the tap read it (without its newline): a
// frame's bytes are treated as the capture writer embeds them (JSON when
// the line, trimmed of white space, is a JSON object or array; else text,
// or bytes when it is not UTF-8), a stderr line as text. A line that does
// not look like JSON also gets the text forms of the key rules. It returns
// line itself and false when nothing changed.
func (r *Redactor) Line(t capture.Type, dir capture.Dir, line []byte) ([]byte, bool) {
	forms := r.forms.kv != nil && textualBytes(t, line)
	if !forms && !r.mayMatch(line, dir) {
		return line, false
	}
	if t == capture.TypeFrame && !forms {
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
			if out, changed, ok := r.json(trimmed, dir); ok {
				if !changed {
					return line, false
				}
				start := len(line) - len(bytes.TrimLeftFunc(line, unicode.IsSpace))
				res := make([]byte, 0, len(line)-len(trimmed)+len(out))
				res = append(append(append(res, line[:start]...), out...), line[start+len(trimmed):]...)
				return res, true
			}
		}
	}
	if !utf8.Valid(line) {
		return r.binary(line, forms)
	}
	s, changed := r.text(string(line), forms)
	if !changed {
		return line, false
	}
	return []byte(s), true
}

// isKey reports whether a member name is one of the keys.
func (r *Redactor) isKey(name []byte) bool {
	if len(r.keys) == 0 || len(name) < r.minKey || len(name) > 4*r.maxKey {
		return false
	}
	if isASCII(string(name)) && !r.wideKeys {
		if !r.maybeKey(name) {
			return false
		}
		var buf [64]byte
		lower := buf[:0]
		if len(name) > len(buf) {
			lower = make([]byte, 0, len(name))
		}
		for _, c := range name {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower = append(lower, c)
		}
		_, ok := r.keys[string(lower)]
		return ok
	}
	if _, ok := r.keys[strings.ToLower(string(name))]; ok {
		return true
	}
	for k := range r.keys {
		if strings.EqualFold(k, string(name)) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
