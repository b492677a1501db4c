package mock

import (
	"fmt"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// Match is how a live request's params are compared with a recorded one's.
type Match string

// The match modes (--match).
const (
	// MatchStrict: the params (without _meta) are equal as JSON values.
	MatchStrict Match = "strict"
	// MatchLoose: every member the recording had is there and equal
	// (recursively); members the recording did not have are ignored.
	MatchLoose Match = "loose"
)

// ParseMatch returns the Match named s.
func ParseMatch(s string) (Match, error) {
	switch m := Match(s); m {
	case MatchStrict, MatchLoose:
		return m, nil
	}
	return "", fmt.Errorf("unknown match mode %q (want strict or loose)", s)
}

// equalParams reports whether live params match recorded ones.
func equalParams(rec, live any, loose bool) bool {
	switch r := rec.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok || (!loose && len(l) != len(r)) {
			return false
		}
		for k, rv := range r {
			lv, ok := l[k]
			if !ok || !equalParams(rv, lv, loose) {
				return false
			}
		}
		return true
	case []any:
		l, ok := live.([]any)
		if !ok || len(l) != len(r) {
			return false
		}
		for i := range r {
			if !equalParams(r[i], l[i], loose) {
				return false
			}
		}
		return true
	case nil:
		if loose {
			return true
		}
		m, isMap := live.(map[string]any)
		return live == nil || (isMap && len(m) == 0)
	}
	return rec == live
}

// find returns the entry a live request matches: the first unused entry
// with its method, target and params in recorded order; failing that, for
// the handshake and lists (which clients repeat), the last used one. It
// returns -1 and what the mock expected when none matches.
func (m *Mock) find(method string, params any) (int, string) {
	last := -1
	var same []int
	for i := range m.script.entries {
		e := &m.script.entries[i]
		if e.method != method {
			continue
		}
		same = append(same, i)
		if !handshake(method) && !equalParams(e.params, params, m.loose) {
			continue
		}
		if !m.used[i] {
			return i, ""
		}
		last = i
	}
	if last >= 0 && (handshake(method) || mcp.ListMethod(method) >= 0) {
		return last, ""
	}
	return -1, m.expected(method, same, last)
}

// expected says what the mock would have answered instead.
func (m *Mock) expected(method string, same []int, used int) string {
	if len(same) == 0 {
		var methods []string
		seen := map[string]bool{}
		for _, e := range m.script.entries {
			if !seen[e.method] {
				seen[e.method] = true
				methods = append(methods, e.method)
			}
		}
		return fmt.Sprintf("the recording has no %s request; it has %s", method, strings.Join(methods, ", "))
	}
	if used >= 0 {
		return fmt.Sprintf("every recorded %s with these params was already answered", describe(method, m.script.entries[used].target))
	}
	var want []string
	for _, i := range same {
		if m.used[i] {
			continue
		}
		e := &m.script.entries[i]
		want = append(want, describe(e.method, e.target)+" "+orEmpty(e.shown))
		if len(want) == 5 {
			want = append(want, "…")
			break
		}
	}
	if len(want) == 0 {
		return fmt.Sprintf("every recorded %s was already answered", method)
	}
	return fmt.Sprintf("expected %s (params without _meta, %s match)", strings.Join(want, " or "), m.mode())
}

func orEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}
