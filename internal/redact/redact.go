package redact

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
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

// Redactor applies redaction rules to the records of one session at a
// time; New builds the one implementation, from Options. It is the one
// redaction seam: the capture writers of both taps (redaction on write),
// the readers of captures (exports, events, the TUI, on read) and the
// CLI's printing of labels and targets all go through it. It keeps
// per-session state and is not safe for concurrent use.
type Redactor interface {
	// Record redacts rec in place and reports whether it changed
	// anything. A session header is always marked Redacted; any other
	// record only when changed.
	Record(rec *capture.Record) bool
	// Line returns a frame or stderr line as the tap read it (without its
	// newline) as it is to be recorded, and whether that differs from
	// line. It does not modify line.
	Line(t capture.Type, dir capture.Dir, line []byte) ([]byte, bool)
	// Names returns a filter of the member names Line acts on in a frame
	// travelling in dir (a JSON frame holding none of them is one Line
	// leaves as it is), or nil when Line must see every frame.
	Names(dir capture.Dir) *capture.NameFilter
	// Text redacts free text that is not a capture record (a URL, a line
	// mcptrail prints).
	Text(s string) (string, bool)
	// Label scrubs a session label that may come from the command line.
	Label(label string, command []string) (string, bool)
	// Argv scrubs a command line, returning a copy when it changes it.
	Argv(argv []string) ([]string, bool)
	// Reset forgets the per-session state, for the next session.
	Reset()
}

// rules is the Redactor New compiles from Options.
type rules struct {
	keys keySet // the key rules' names (keys.go)
	// suffixes has the bit (suffixHash) of every last four bytes a name
	// matching a key may end in, and of the names answer redaction looks
	// for, folded as scanPlain folds; plain is false when the key set
	// cannot say (keySet.hashed), and scanPlain cannot be used.
	suffixes [16]uint64
	plain    bool
	paths    []jp.Expr
	values   *regexp.Regexp // the Values, as one alternation
	textKeys *regexp.Regexp // "name": in text, nil without keys
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

// New compiles opts into a Redactor. It returns ErrEmptyKey for an empty
// key, and an error naming a JSONPath that does not parse or does not
// start with $; the Redactor is nil exactly when the error is not.
func New(opts *Options) (Redactor, error) {
	r, err := compile(opts)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// compile is New, returning the implementation.
func compile(opts *Options) (*rules, error) {
	r := &rules{sepless: map[string]struct{}{}}
	if opts == nil {
		opts = &Options{}
	}
	keys := opts.Keys
	var words []string
	if opts.Secrets {
		keys, words = append(SecretKeys(), keys...), secretWords()
	}
	for _, k := range keys {
		if strings.TrimSpace(k) == "" {
			return nil, ErrEmptyKey
		}
		r.sepless[sepless(strings.ToLower(k))] = struct{}{}
	}
	r.keys = newKeySet(keys, words)
	r.plain = r.addSuffixes()
	if !r.keys.empty() {
		r.textKeys = regexp.MustCompile(quotedNamePattern)
	}
	r.forms = newForms(!r.keys.empty())
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

// addSuffixes fills r.suffixes, the key set's (keySet.hashed) and the
// names answer redaction looks for, and reports whether every key suits
// scanPlain.
func (r *rules) addSuffixes() bool {
	if !r.keys.hashed {
		return false
	}
	r.suffixes = r.keys.suffixes
	for _, k := range []string{"inputResponses", "action", "content"} {
		addSuffix(&r.suffixes, k[len(k)-4:])
	}
	return true
}

// Names returns a filter that selects the member names Line looks for in a
// frame travelling in dir, or nil when Line may change a frame whatever its
// member names (value and path rules, answers from the server). A JSON
// frame none of whose names the filter selects is one Line leaves alone;
// the capture writer checks this in the pass that validates the frame
// (capture.Writer.WriteLineUnselected).
func (r *rules) Names(dir capture.Dir) *capture.NameFilter {
	if dir == capture.S2C {
		return r.filters[1]
	}
	return r.filters[0]
}

// nameFilter builds the filter Names returns for dir.
func (r *rules) nameFilter(dir capture.Dir) *capture.NameFilter {
	if r.values != nil || len(r.paths) > 0 || r.keys.wide || r.answers && dir != capture.C2S {
		return nil
	}
	// A name matches a key as its last word: the filter looks at a name's
	// last byte (- and _ either way).
	var tails []string
	for k := range r.keys.names {
		tails = append(tails, k)
		if strings.HasSuffix(k, "_") {
			tails = append(tails, strings.TrimSuffix(k, "_")+"-")
		}
	}
	answers := r.answers && dir == capture.C2S
	if answers {
		tails = append(tails, "inputResponses", "action", "content")
	}
	return capture.NewTailFilter(tails, func(name []byte) bool {
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
func (r *rules) Reset() { clear(r.elicits) }

// Record redacts rec in place and reports whether it changed anything. A
// session header is always marked Redacted; any other record only when
// changed.
func (r *rules) Record(rec *capture.Record) bool {
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
func (r *rules) frame(rec *capture.Record) bool {
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
func (r *rules) Line(t capture.Type, dir capture.Dir, line []byte) ([]byte, bool) {
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

// isKey reports whether a member name is a key (see keySet).
func (r *rules) isKey(name []byte) bool { return r.keys.match(name) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
