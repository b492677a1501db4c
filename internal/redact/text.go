package redact

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// maxPasses bounds the passes that bring a value to a fixed point. Each
// pass that changes something replaces at least one byte that was not
// placeholder, so the bound is only reached by pathological input.
const maxPasses = 16

// valueString replaces every match of the value rules in s. Matches are
// sought between existing placeholders, pass after pass until nothing
// changes, so that redacting twice equals redacting once even for
// anchored expressions; empty matches are ignored.
func (r *rules) valueString(s string) (string, bool) {
	if r.values == nil {
		return s, false
	}
	changed := false
	for range maxPasses {
		out, c := r.valuePass(s)
		if !c {
			break
		}
		s, changed = out, true
	}
	return s, changed
}

// valuePass is one pass of valueString.
func (r *rules) valuePass(s string) (string, bool) {
	var b strings.Builder
	changed := false
	rest := s
	for {
		seg, after, found := strings.Cut(rest, Placeholder)
		last := 0
		for _, m := range r.values.FindAllStringIndex(seg, -1) {
			if m[0] == m[1] {
				continue
			}
			if !changed {
				b.Grow(len(s))
				b.WriteString(s[:len(s)-len(rest)])
				changed = true
			}
			b.WriteString(seg[last:m[0]])
			b.WriteString(Placeholder)
			last = m[1]
		}
		if changed {
			b.WriteString(seg[last:])
			if found {
				b.WriteString(Placeholder)
			}
		}
		if !found {
			break
		}
		rest = after
	}
	if !changed {
		return s, false
	}
	return b.String(), true
}

// text redacts a line of text: the value of each "key": value pair a key
// rule selects, with forms the other text forms (see formsPass), then the
// value rules, until nothing changes.
func (r *rules) text(s string, forms bool) (string, bool) {
	forms = forms && r.forms.kv != nil
	changed := false
	for range maxPasses {
		c := false
		if r.textKeys != nil {
			s, c = r.textKeyPass(s)
		}
		var cf, cv bool
		if forms {
			s, cf = r.formsPass(s, true)
		}
		s, cv = r.valueString(s)
		if !c && !cf && !cv {
			break
		}
		changed = true
	}
	return s, changed
}

// Text redacts free text that is not a capture record (a URL or a line
// mcptrail prints): the text forms of the key rules, URL passwords and
// the value rules.
func (r *rules) Text(s string) (string, bool) {
	changed := false
	for range maxPasses {
		var cf, cv bool
		s, cf = r.formsPass(s, true)
		s, cv = r.valueString(s)
		if !cf && !cv {
			break
		}
		changed = true
	}
	return s, changed
}

// textual reports whether a frame's line is text for the text forms: it
// does not look like JSON (an object or array), torn or not. A stderr line
// always is.
func textual(t capture.Type, line string) bool {
	if t != capture.TypeFrame {
		return true
	}
	trimmed := strings.TrimSpace(line)
	return trimmed == "" || trimmed[0] != '{' && trimmed[0] != '['
}

// textualBytes is textual for a line the tap read.
func textualBytes(t capture.Type, line []byte) bool {
	if t != capture.TypeFrame {
		return true
	}
	trimmed := bytes.TrimSpace(line)
	return len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '['
}

// quotedNamePattern finds "name": in text, the name in its group.
const quotedNamePattern = `"((?:[^"\\]|\\.)*)"\s*:\s*`

// textKeyPass replaces the values of "name": value pairs whose name is a
// key: a quoted string, or else the run up to white space, a comma or a
// closing bracket.
func (r *rules) textKeyPass(s string) (string, bool) {
	if strings.IndexByte(s, '"') < 0 || strings.IndexByte(s, ':') < 0 {
		return s, false
	}
	var b strings.Builder
	last := 0
	for _, m := range r.textKeys.FindAllStringSubmatchIndex(s, -1) {
		if m[0] < last || !r.isKey(quotedName(s[m[2]-1:m[3]+1])) {
			continue
		}
		end := textValueEnd(s, m[1])
		if end == m[1] || s[m[1]:end] == quotedPlaceholder {
			continue
		}
		b.WriteString(s[last:m[1]])
		b.WriteString(quotedPlaceholder)
		last = end
	}
	if last == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// quotedName returns the name a quoted string in text spells: unescaped,
// or as it is when it does not unquote.
func quotedName(q string) []byte {
	if !strings.Contains(q, `\`) {
		return []byte(q[1 : len(q)-1])
	}
	if name, ok := jsonraw.Unquote(nil, []byte(q)); ok {
		return name
	}
	return []byte(q[1 : len(q)-1])
}

// textValueEnd returns the end of the value that starts at s[i] in a
// "name": value pair: after the closing quote of a string, or else at the
// first white space, comma or closing bracket.
func textValueEnd(s string, i int) int {
	if i < len(s) && s[i] == '"' {
		for k := i + 1; k < len(s); k++ {
			switch s[k] {
			case '\\':
				k++
			case '"':
				return k + 1
			}
		}
	}
	end := strings.IndexAny(s[i:], ",}] \t\n\f\r")
	if end < 0 {
		return len(s)
	}
	return i + end
}

// binary applies the value rules to bytes that are not UTF-8; with forms
// and key rules, it redacts them as text (quoted pairs, text forms, value
// rules: a byte that is not UTF-8 is nothing these look for).
func (r *rules) binary(b []byte, forms bool) ([]byte, bool) {
	if forms && r.forms.kv != nil {
		s, changed := r.text(string(b), true)
		if !changed {
			return b, false
		}
		return []byte(s), true
	}
	if r.values == nil {
		return b, false
	}
	changed := false
	for range maxPasses {
		out, c := r.binaryPass(b)
		if !c {
			break
		}
		b, changed = out, true
	}
	return b, changed
}

// binaryRecord redacts a stderr or frame record's b64 payload. What
// redaction leaves valid UTF-8 (a cookie's odd bytes gone) moves to text
// when it is not JSON-looking, as the capture writer records such a line on
// write, so reading back agrees with writing.
func (r *rules) binaryRecord(rec *capture.Record) bool {
	forms := textual(rec.Type, string(rec.B64))
	out, changed := r.binary(rec.B64, forms)
	if !changed {
		return false
	}
	if forms && utf8.Valid(out) {
		rec.Text, rec.B64 = string(out), nil
	} else {
		rec.B64 = out
	}
	return true
}

func (r *rules) binaryPass(b []byte) ([]byte, bool) {
	var out []byte
	changed := false
	rest := b
	for {
		i := bytes.Index(rest, []byte(Placeholder))
		seg := rest
		if i >= 0 {
			seg = rest[:i]
		}
		last := 0
		for _, m := range r.values.FindAllIndex(seg, -1) {
			if m[0] == m[1] {
				continue
			}
			if !changed {
				out = append(out, b[:len(b)-len(rest)]...)
				changed = true
			}
			out = append(append(out, seg[last:m[0]]...), Placeholder...)
			last = m[1]
		}
		if changed {
			out = append(out, seg[last:]...)
			if i >= 0 {
				out = append(out, Placeholder...)
			}
		}
		if i < 0 {
			break
		}
		rest = rest[i+len(Placeholder):]
	}
	if !changed {
		return b, false
	}
	return out, true
}

// header scrubs a session header's label, command line and target.
func (r *rules) header(rec *capture.Record) bool {
	changed := false
	if rec.Label != "" {
		rec.Label, changed = r.Label(rec.Label, rec.Command)
	}
	if len(rec.Command) > 0 {
		var c bool
		rec.Command, c = r.Argv(rec.Command)
		changed = changed || c
	}
	if rec.Target != "" {
		var c bool
		rec.Target, c = r.Text(rec.Target)
		changed = changed || c
	}
	return changed
}

// Label scrubs a session label, which may have been derived from the
// command line: it becomes the placeholder when Argv takes some of its
// occurrences out of an argument of command (a label taken from the
// value of --token, or from part of it), and the value rules apply to it.
func (r *rules) Label(label string, command []string) (string, bool) {
	if label == "" || label == Placeholder {
		return label, false
	}
	if scrubbed, changed := r.Argv(command); changed {
		for i, a := range command {
			if scrubbed[i] != a && strings.Count(a, label) > strings.Count(scrubbed[i], label) {
				return Placeholder, true
			}
		}
	}
	return r.valueString(label)
}

// Argv scrubs a command line, returning a copy when it changes it: the
// value of --name=V, of --name V, of NAME=V and of "Name: V" whose name is
// a key (see the package doc); inside every argument (an `sh -c` string, a
// URL's query), the text forms of the keys (see formsPass) and URL
// passwords; and every match of the value rules.
func (r *rules) Argv(argv []string) ([]string, bool) {
	var out []string
	set := func(i int, v string) {
		if v == argv[i] {
			return
		}
		if out == nil {
			out = append([]string(nil), argv...)
		}
		out[i] = v
	}
	for i := 0; i < len(argv); i++ {
		v, secretNext := r.arg(argv, i)
		set(i, v)
		if secretNext {
			i++
			set(i, Placeholder)
		}
	}
	if out == nil {
		return argv, false
	}
	return out, true
}

// arg scrubs argv[i] and reports whether argv[i+1] is its secret value.
// The argument after -c is a script (sh -c, python -c): only the text
// forms apply to it.
func (r *rules) arg(argv []string, i int) (string, bool) {
	a := argv[i]
	v := a
	secretNext := false
	switch {
	case i > 0 && argv[i-1] == "-c":
	case strings.HasPrefix(a, "-") && a != "--":
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !r.argvKey(name) {
			break
		}
		if hasValue {
			v = a[:strings.IndexByte(a, '=')+1] + Placeholder
		} else {
			secretNext = i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "--")
		}
	case strings.Contains(a, "="):
		name, _, _ := strings.Cut(a, "=")
		if r.argvKey(name) {
			v = name + "=" + Placeholder
		}
	case strings.Contains(a, ": "):
		name, _, _ := strings.Cut(a, ": ")
		if r.argvKey(name) {
			v = name + ": " + Placeholder
		}
	}
	v, _ = r.Text(v)
	return v, secretNext
}

// argvKey reports whether a flag, variable or header name is a key (see
// keySet).
func (r *rules) argvKey(name string) bool { return r.keys.matchString(name) }
