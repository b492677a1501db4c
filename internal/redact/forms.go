package redact

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Text forms: how a secret appears outside JSON, in a stderr line, a
// non-JSON text frame, a command-line argument (an `sh -c` string
// included) or a URL. formsPass finds them with one expression and judges
// each name with argvKey:
//
//	name=value  name: value  "name": "value"  'name'='value'
//	--name value  (a flag followed by a word that does not start with --)
//	Authorization: Bearer value  (the scheme is kept)
//	Cookie: rest of the line  (cookie and set-cookie take the rest)
//	https://user:value@host/   (userinfo: always, whatever the keys)
//
// A value is a quoted string (its inside is replaced, the quotes kept) or
// a run of bytes up to white space, a quote, or one of ,;&<>(){}. Query
// parameters are name=value forms: ?token=X&apikey=Y loses both values.

// formPattern finds a flag followed by white space, or a name followed by
// = or : (after an optional closing quote). The name run excludes dots, so
// config.password=X names password.
const formPattern = `(?i)(--?[a-z0-9][a-z0-9_-]*)[ \t]+|([a-z0-9_-]+)(["']?)[ \t]*[:=][ \t]*`

// userinfoPattern finds the password of a URL's userinfo.
const userinfoPattern = `(?i)[a-z][a-z0-9+.-]*://[^\s/?#@:"'<>]*:([^\s/?#@"'<>]+)@`

// authSchemes are the HTTP auth schemes kept before a credential, lower-case.
func authSchemes() []string {
	return []string{"bearer", "basic", "digest", "token", "negotiate", "ntlm", "dpop", "mac", "hoba", "bot", "apikey"}
}

// forms holds the compiled expressions of the text forms.
type forms struct {
	kv       *regexp.Regexp // nil without keys
	userinfo *regexp.Regexp
}

func newForms(keys bool) forms {
	f := forms{userinfo: regexp.MustCompile(userinfoPattern)}
	if keys {
		f.kv = regexp.MustCompile(formPattern)
	}
	return f
}

// span is a byte range of s to replace with Placeholder.
type span struct{ start, end int }

// formsPass replaces, once, the values of the text forms in s whose name
// is a key, and the passwords of URLs; withKeys false does URLs only.
func (r *rules) formsPass(s string, withKeys bool) (string, bool) {
	// Every form holds one of these: most lines of a chatty server hold
	// none and cost no expression.
	if !strings.ContainsAny(s, "=:-") {
		return s, false
	}
	var spans []span
	for _, m := range r.forms.userinfo.FindAllStringSubmatchIndex(s, -1) {
		if s[m[2]:m[3]] != Placeholder {
			spans = append(spans, span{m[2], m[3]})
		}
	}
	if withKeys && r.forms.kv != nil {
		spans = r.kvSpans(s, spans)
	}
	if len(spans) == 0 {
		return s, false
	}
	return replaceSpans(s, spans), true
}

// kvSpans appends the values of the name/value forms of s whose name is a
// key.
func (r *rules) kvSpans(s string, spans []span) []span {
	for _, m := range r.forms.kv.FindAllStringSubmatchIndex(s, -1) {
		var name string
		flag := m[2] >= 0
		if flag {
			// A flag starts a word: my-token X is no flag.
			if m[0] > 0 && isNameByte(s[m[0]-1]) {
				continue
			}
			name = s[m[2]:m[3]]
		} else {
			name = s[m[4]:m[5]]
		}
		if !r.argvKey(strings.TrimLeft(name, "-")) {
			continue
		}
		if flag && strings.HasPrefix(s[m[1]:], "--") {
			continue
		}
		if sp, ok := formValue(s, m[1], name); ok {
			spans = append(spans, sp)
		}
	}
	return spans
}

// formValue returns the span of the value that starts at s[i] for a key
// called name, and false when there is none or it is already the
// placeholder.
func formValue(s string, i int, name string) (span, bool) {
	lower := strings.ToLower(name)
	rest := s[i:]
	if rest == "" {
		return span{}, false
	}
	if q := rest[0]; q == '"' || q == '\'' {
		end := quoteEnd(rest, q)
		return placeholderOr(s, span{i + 1, i + end})
	}
	switch {
	case strings.HasSuffix(lower, "cookie"):
		return placeholderOr(s, span{i, i + lineEnd(rest)})
	case strings.HasSuffix(lower, "authorization"):
		i += schemeLen(rest)
		return placeholderOr(s, span{i, i + lineEnd(s[i:])})
	}
	i += schemeLen(rest)
	end := strings.IndexAny(s[i:], " \t\r\n\"',;&<>(){}")
	if end < 0 {
		end = len(s) - i
	}
	return placeholderOr(s, span{i, i + end})
}

// placeholderOr returns sp, and false when it is empty or already holds
// the placeholder.
func placeholderOr(s string, sp span) (span, bool) {
	if sp.end <= sp.start || s[sp.start:sp.end] == Placeholder {
		return sp, false
	}
	return sp, true
}

// quoteEnd returns the index in s (which starts with the quote q) of the
// closing quote, or len(s) when there is none; a backslash escapes the
// next byte inside double quotes.
func quoteEnd(s string, q byte) int {
	for k := 1; k < len(s); k++ {
		switch {
		case s[k] == '\\' && q == '"':
			k++
		case s[k] == q:
			return k
		}
	}
	return len(s)
}

// lineEnd returns the length of s up to a line break or a double quote
// (the end of a JSON string holding the header), trailing blanks dropped.
func lineEnd(s string) int {
	n := strings.IndexAny(s, "\r\n\"")
	if n < 0 {
		n = len(s)
	}
	return len(strings.TrimRight(s[:n], " \t"))
}

// schemeLen returns the length of an auth scheme and the blanks after it
// at the start of s, or 0 when s does not start with one followed by a
// credential.
func schemeLen(s string) int {
	word := s
	if k := strings.IndexAny(s, " \t"); k > 0 {
		word = s[:k]
	} else {
		return 0
	}
	for _, sc := range authSchemes() {
		if strings.EqualFold(word, sc) {
			n := len(word) + len(s[len(word):]) - len(strings.TrimLeft(s[len(word):], " \t"))
			if n == len(s) || strings.ContainsRune("\r\n\"'", rune(s[n])) {
				return 0
			}
			return n
		}
	}
	return 0
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// replaceSpans replaces each span of s with Placeholder; spans may come
// in any order, and overlapping ones make one.
func replaceSpans(s string, spans []span) string {
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		if sp.start < last {
			last = max(last, sp.end)
			continue
		}
		b.WriteString(s[last:sp.start])
		b.WriteString(Placeholder)
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}
