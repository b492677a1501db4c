package filter

import (
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Item is what one stream row offers the filter; the TUI fills it from a
// store snapshot. Each field's zero value means the row has none.
type Item struct {
	// Target is the tool name, resource URI or prompt name; "" if none.
	// tool: matches it.
	Target string
	// Method is the JSON-RPC method; "" for a response without a request.
	Method string
	// IDs holds the row's own id and its operation's root id, as raw
	// JSON-RPC id text (7, "abc"); nil for a notification.
	IDs []string
	// Dir is "c2s" or "s2c".
	Dir string
	// Status is one of the status: values; "" if the row has none.
	Status string
	// Late reports whether the row's answer came after its cancellation:
	// status:late matches it whatever Status says (a late call's Status is
	// that of the answer, such as ok).
	Late bool
	// Era is "modern" or "legacy"; "" if not known.
	Era string
	// Elicit holds the outcomes of the row's elicitation ledger rows (an
	// answer's action, else the row's status) and their modes (form, url).
	Elicit []string
	// Rules holds the rule ids of the row's findings.
	Rules []string
	// Duration is the row's latency; only meaningful if DurationKnown.
	Duration time.Duration
	// DurationKnown reports whether Duration is set; slow: never matches
	// an item without it (but !slow: does).
	DurationKnown bool
	// Message is free text shown with the row, such as an error message.
	Message string
}

// Match reports whether it satisfies every term of f. A nil Filter matches
// everything.
func (f *Filter) Match(it *Item) bool {
	if f == nil {
		return true
	}
	for _, t := range f.terms {
		if t.match(it) == t.neg {
			return false
		}
	}
	return true
}

// match reports whether it satisfies t, negation aside.
func (t term) match(it *Item) bool {
	switch t.key {
	case "":
		return containsFold(it.Method, t.value) || containsFold(it.Target, t.value) || containsFold(it.Message, t.value)
	case "tool":
		return glob(t.value, it.Target)
	case "method":
		return glob(t.value, it.Method)
	case "id":
		return anyOf(it.IDs, func(id string) bool { return sameID(id, t.value) })
	case "dir":
		return it.Dir == t.value
	case "status":
		return it.Status == t.value || (t.value == "late" && it.Late)
	case "era":
		return it.Era == t.value
	case "elicit":
		return anyOf(it.Elicit, func(o string) bool { return o == t.value })
	case "rule":
		return anyOf(it.Rules, func(r string) bool { return glob(t.value, r) })
	case "slow":
		return it.DurationKnown && holds(t.cmp, it.Duration, time.Duration(t.dur))
	}
	return false
}

// anyOf reports whether ok holds for some element of vs.
func anyOf(vs []string, ok func(string) bool) bool {
	for _, v := range vs {
		if ok(v) {
			return true
		}
	}
	return false
}

// containsFold reports whether sub is in s, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(lower(s), lower(sub))
}

// sameID reports whether raw, a raw JSON-RPC id, is want: as typed, or
// once a string id is decoded as JSON (`"a\/b"` is a/b).
func sameID(raw, want string) bool {
	if raw == want {
		return true
	}
	u, ok := jsonraw.UnquoteStrict(nil, []byte(raw))
	return ok && string(u) == want
}

// glob reports whether s matches pattern, where "*" stands for any run of
// characters and everything else for itself.
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return s == pattern
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, last)
}
