package filter

import (
	"testing"
	"time"
)

// fuzzItems are the items FuzzParse checks a filter and its canonical form
// against.
func fuzzItems() []*Item {
	return []*Item{
		{},
		{Target: "get weather", Method: "tools/call", IDs: []string{"7", `"op-1"`}, Dir: "c2s", Status: "ok",
			Era: "modern", Duration: 600 * time.Millisecond, DurationKnown: true, Message: "Done: 3 rows"},
		{Method: "elicitation/create", IDs: []string{`"a b"`}, Dir: "s2c", Status: "pending", Era: "legacy",
			Elicit: []string{"accept", "pending"}, Rules: []string{"elicit-unanswered"}, Message: `say "hi" \ !x`},
		{Target: "file:///x", Method: "resources/read", Status: "error", Rules: []string{"id-reused", "late-response"},
			Duration: 1500 * time.Millisecond, DurationKnown: true},
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "tool:get_*", `!tool:"get weather"`, `"two words" status:ok`, "slow:>500ms slow:<=1.5s slow:>500",
		"id:7 dir:c2s era:modern elicit:accept rule:late-*", `method:"a\"b" !"x:y"`, "STATUS:Error !!x",
		"status:nope", `tool:"abc`, ":x", "slow:500", `a"b`, "héllo\u00a0wörld",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		flt, err := Parse(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("Parse(%q): empty error text", s)
			}
			return
		}
		canon := flt.String()
		again, err := Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %q, which does not parse: %v", s, canon, err)
		}
		if got := again.String(); got != canon {
			t.Fatalf("Parse(%q).String() = %q, but that prints %q", s, canon, got)
		}
		for i, it := range fuzzItems() {
			if flt.Match(it) != again.Match(it) {
				t.Fatalf("Parse(%q) and Parse(%q) disagree on item %d", s, canon, i)
			}
		}
	})
}
