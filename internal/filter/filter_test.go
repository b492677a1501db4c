package filter

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	t.Parallel()
	ms := int64(time.Millisecond)
	for _, tc := range []struct {
		in    string
		want  []term
		canon string
	}{
		{"", nil, ""},
		{"  \t ", nil, ""},
		{"tool:get_weather", []term{{key: "tool", value: "get_weather"}}, "tool:get_weather"},
		{`TOOL:"get weather"`, []term{{key: "tool", value: "get weather"}}, `tool:"get weather"`},
		{`!Method:tools/*`, []term{{neg: true, key: "method", value: "tools/*"}}, "!method:tools/*"},
		{`"two words"`, []term{{value: "two words"}}, `"two words"`},
		{`"a:b"  !"!x"`, []term{{value: "a:b"}, {neg: true, value: "!x"}}, `"a:b" !"!x"`},
		{`!!x`, []term{{neg: true, value: "!x"}}, `!"!x"`},
		{`tool:"say \"hi\" \\ ok"`, []term{{key: "tool", value: `say "hi" \ ok`}}, `tool:"say \"hi\" \\ ok"`},
		{`tool:a:b`, []term{{key: "tool", value: "a:b"}}, "tool:a:b"},
		{"status:OK dir:c2s era:legacy elicit:pending", []term{
			{key: "status", value: "ok"}, {key: "dir", value: "c2s"}, {key: "era", value: "legacy"}, {key: "elicit", value: "pending"},
		}, "status:ok dir:c2s era:legacy elicit:pending"},
		{`id:7 id:"\"abc\"" rule:late-*`, []term{{key: "id", value: "7"}, {key: "id", value: `"abc"`}, {key: "rule", value: "late-*"}},
			`id:7 id:"\"abc\"" rule:late-*`},
		{"slow:>500ms", []term{{key: "slow", cmp: ">", dur: 500 * ms}}, "slow:>500ms"},
		{"slow:>=1.5s", []term{{key: "slow", cmp: ">=", dur: 1500 * ms}}, "slow:>=1.5s"},
		{"slow:<500", []term{{key: "slow", cmp: "<", dur: 500 * ms}}, "slow:<500ms"},
		{"!slow:<=0.5", []term{{neg: true, key: "slow", cmp: "<=", dur: ms / 2}}, "!slow:<=500µs"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			f, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, f.terms, cmp.AllowUnexported(term{})); diff != "" {
				t.Errorf("Parse(%q) terms (-want +got):\n%s", tc.in, diff)
			}
			if got := f.String(); got != tc.canon {
				t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.canon)
			}
			again, err := Parse(f.String())
			if err != nil {
				t.Fatalf("Parse(%q): %v", f.String(), err)
			}
			if diff := cmp.Diff(f.terms, again.terms, cmp.AllowUnexported(term{})); diff != "" {
				t.Errorf("round trip of %q (-first +second):\n%s", tc.in, diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	slowWant := "want >DUR, >=DUR, <DUR or <=DUR, DUR a Go duration or milliseconds"
	for _, tc := range []struct {
		in, want string
	}{
		{"status:nope", `status:"nope" at column 8: want one of ok, error, tool-error, input-required, pending, cancelled, late`},
		{"ok dir:up", `dir:"up" at column 8: want one of c2s, s2c`},
		{"era:new", `era:"new" at column 5: want one of modern, legacy`},
		{"elicit:yes", `elicit:"yes" at column 8: want one of accept, decline, cancel, pending, required, error, form, url, app`},
		{"x colour:red", `colour:"red" at column 3: unknown key "colour"; want one of tool, method, id, dir, status, era, elicit, rule, slow`},
		{"tool:", `tool:"" at column 6: empty value`},
		{`tool:""`, `tool:"" at column 6: empty value`},
		{`a ""`, `"" at column 3: empty term`},
		{"!", `"" at column 1: empty term`},
		{":x", `:x at column 1: missing key before the colon`},
		{`tool:"get weather`, `"get weather at column 6: unterminated quote`},
		{`"ab"cd`, `"ab" at column 5: want a space after the closing quote`},
		{`ab"cd"`, `ab" at column 3: unexpected quote`},
		{`tool:ab"c"`, `tool:ab" at column 8: unexpected quote`},
		{"slow:500ms", `slow:"500ms" at column 6: ` + slowWant},
		{"slow:>", `slow:">" at column 6: ` + slowWant},
		{"slow:>fast", `slow:">fast" at column 6: ` + slowWant},
		{"slow:>-5s", `slow:">-5s" at column 6: negative duration`},
		{"slow:>1e3", `slow:">1e3" at column 6: ` + slowWant},
		{"slow:>99999999999999999", `slow:">99999999999999999" at column 6: duration out of range`},
		{"é status:x", `status:"x" at column 10: want one of ok, error, tool-error, input-required, pending, cancelled, late`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			f, err := Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %q, want error %q", tc.in, f, tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("Parse(%q) error (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}
