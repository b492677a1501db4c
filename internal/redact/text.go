package redact

import (
	"bytes"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// maxPasses bounds the passes that bring a value to a fixed point. Each
// pass that changes something replaces at least one byte that was not
// placeholder, so the bound is only reached by pathological input.
const maxPasses = 16

// valueString replaces every match of the value rules in s. Matches are
// sought between existing placeholders, pass after pass until nothing
// changes, so that redacting twice equals redacting once even for
// anchored expressions; empty matches are ignored.
func (r *Redactor) valueString(s string) (string, bool) {
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
func (r *Redactor) valuePass(s string) (string, bool) {
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
// rule selects, then the value rules, until nothing changes.
func (r *Redactor) text(s string) (string, bool) {
	changed := false
	for range maxPasses {
		c := false
		if r.textKeys != nil {
			s, c = r.textKeyPass(s)
		}
		var cv bool
		s, cv = r.valueString(s)
		if !c && !cv {
			break
		}
		changed = true
	}
	return s, changed
}

// textKeyPass replaces the values of "key": value pairs.
func (r *Redactor) textKeyPass(s string) (string, bool) {
	ms := r.textKeys.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s, false
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if s[m[4]:m[5]] == quotedPlaceholder {
			continue
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(quotedPlaceholder)
		last = m[5]
	}
	if last == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// binary applies the value rules to bytes that are not UTF-8.
func (r *Redactor) binary(b []byte) ([]byte, bool) {
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

func (r *Redactor) binaryPass(b []byte) ([]byte, bool) {
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
func (r *Redactor) header(rec *capture.Record) bool {
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
		rec.Target, c = r.valueString(rec.Target)
		changed = changed || c
	}
	return changed
}

// Label scrubs a session label, which may have been derived from the
// command line: it becomes the placeholder when its text is part of an
// argument of command that Argv scrubs and is gone from what Argv leaves
// of that argument (a label taken from the value of --token), and the
// value rules apply to it.
func (r *Redactor) Label(label string, command []string) (string, bool) {
	if label == "" || label == Placeholder {
		return label, false
	}
	if scrubbed, changed := r.Argv(command); changed {
		for i, a := range command {
			if scrubbed[i] != a && strings.Contains(a, label) && !strings.Contains(scrubbed[i], label) {
				return Placeholder, true
			}
		}
	}
	return r.valueString(label)
}

// Argv scrubs a command line, returning a copy when it changes it: the
// value of --name=V, of --name V, of NAME=V and of "Name: V" whose name is
// a key (see the package doc), and every match of the value rules.
func (r *Redactor) Argv(argv []string) ([]string, bool) {
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
		a := argv[i]
		v := a
		secretNext := false
		switch {
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
		v, _ = r.valueString(v)
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

// argvKey reports whether a flag, variable or header name is a key:
// lower-cased with - read as _, it equals a key or ends in _ and a key.
func (r *Redactor) argvKey(name string) bool {
	if name == "" || len(r.argvKeys) == 0 || strings.ContainsAny(name, " \t/") {
		return false
	}
	n := strings.ReplaceAll(strings.ToLower(name), "-", "_")
	for {
		if _, ok := r.argvKeys[n]; ok {
			return true
		}
		i := strings.IndexByte(n, '_')
		if i < 0 {
			return false
		}
		n = n[i+1:]
	}
}
