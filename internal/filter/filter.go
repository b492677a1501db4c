// Package filter is the filter language of the live TUI's filter bar and of
// the HTML report's filter box: space separated terms, all of which must
// match, each a key:value pair or free text, negated by a leading "!". The
// keys and their values are one table (Spec); the report's script reads it
// from the page.
//
// It sits below every view (internal/tui/stream and internal/export/html
// import it) and knows nothing of the store: a view copies what a row offers
// into an Item. It does no I/O. A Filter is immutable once parsed and safe
// for concurrent use.
package filter

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// SyntaxError describes a term the parser rejected.
type SyntaxError struct {
	Term   string // the term, as typed or as key:"value"
	Column int    // 1-based rune column in the input
	Msg    string // what is wrong
}

// Error returns `term at column N: msg`.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at column %d: %s", e.Term, e.Column, e.Msg)
}

// Filter is a parsed filter: a conjunction of terms. The zero Filter
// matches every item.
type Filter struct {
	terms []term
}

// term is one parsed condition.
type term struct {
	neg   bool
	key   string // "" for free text
	value string // the value or the text; "" for slow
	cmp   string // slow only: ">", ">=", "<", "<="
	dur   int64  // slow only: the bound in nanoseconds
}

// Parse parses s. Empty or blank input gives a Filter matching everything.
// A malformed term gives a *SyntaxError naming it and its column.
func Parse(s string) (*Filter, error) {
	f := &Filter{}
	sc := &scanner{src: s}
	for sc.skipSpace() {
		tok, err := sc.next()
		if err != nil {
			return nil, err
		}
		t, err := build(tok)
		if err != nil {
			return nil, err
		}
		f.terms = append(f.terms, t)
	}
	return f, nil
}

// build checks a token's key and value against Spec and makes a term of it.
func build(tok token) (term, error) {
	t := term{neg: tok.neg, key: tok.key, value: tok.value}
	bad := func(msg string) (term, error) {
		return term{}, &SyntaxError{Term: tok.key + ":" + quoteShown(tok.value), Column: tok.valueCol, Msg: msg}
	}
	if tok.key == "" {
		if tok.value == "" {
			return term{}, &SyntaxError{Term: quoteShown(tok.value), Column: tok.col, Msg: "empty term"}
		}
		return t, nil
	}
	k, ok := lookup(tok.key)
	switch {
	case !ok:
		return term{}, &SyntaxError{Term: tok.key + ":" + quoteShown(tok.value), Column: tok.col,
			Msg: "unknown key " + quoteShown(tok.key) + "; want one of " + strings.Join(Keys(), ", ")}
	case tok.value == "":
		return bad("empty value")
	case k.Kind == KindDuration:
		op, d, err := parseSlow(tok.value)
		if err != nil {
			return bad(err.Error())
		}
		t.cmp, t.dur, t.value = op, int64(d), ""
		return t, nil
	case k.Kind == KindEnum:
		t.value = lower(tok.value)
		if !slices.Contains(k.Values, t.value) {
			return bad("want one of " + strings.Join(k.Values, ", "))
		}
	}
	return t, nil
}

// String returns the filter in canonical form: lower-case keys, quotes only
// where needed, durations as time.Duration prints them. It parses back to an
// equal Filter.
func (f *Filter) String() string {
	parts := make([]string, 0, len(f.terms))
	for _, t := range f.terms {
		parts = append(parts, t.String())
	}
	return strings.Join(parts, " ")
}

// String returns the term in canonical form.
func (t term) String() string {
	var b strings.Builder
	if t.neg {
		b.WriteByte('!')
	}
	switch t.key {
	case "":
		b.WriteString(quote(t.value, true))
	case "slow":
		b.WriteString("slow:" + t.cmp + durationString(t.dur))
	default:
		b.WriteString(t.key + ":" + quote(t.value, false))
	}
	return b.String()
}

// quote returns v bare when it scans back as itself, else double-quoted with
// backslashes before quotes and backslashes. Free text is also quoted when
// it holds a colon or starts with "!".
func quote(v string, text bool) string {
	needs := v == "" || strings.ContainsAny(v, `"\`) || strings.IndexFunc(v, unicode.IsSpace) >= 0 ||
		(text && (strings.Contains(v, ":") || strings.HasPrefix(v, "!")))
	if !needs {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(v) + `"`
}
