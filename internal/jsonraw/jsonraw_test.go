package jsonraw

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnquote(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		ok     bool
		shared bool // the result aliases the input
		strict bool // UnquoteStrict refuses it (Unquote trusts it)
	}{
		{in: `"plain"`, want: "plain", ok: true, shared: true},
		{in: `""`, want: "", ok: true, shared: true},
		{in: `"héllo ☃"`, want: "héllo ☃", ok: true, shared: true},
		{in: `"a\"b"`, want: `a"b`, ok: true},
		{in: `"tab\tnl\n\u00e9\/"`, want: "tab\tnl\né/", ok: true},
		{in: `"\ud83d\ude00"`, want: "😀", ok: true},
		{in: `"\u0000"`, want: "\x00", ok: true},
		{in: `"a`, ok: false},
		{in: `a"`, ok: false},
		{in: `"`, ok: false},
		{in: ``, ok: false},
		{in: `"a\"`, ok: false},
		{in: `"\x"`, ok: false},
		{in: `12`, ok: false},
		{in: ` "a"`, ok: false},
		{in: `"a"b"`, want: `a"b`, ok: true, shared: true, strict: true},
		{in: "\"a\x01\"", want: "a\x01", ok: true, shared: true, strict: true},
		{in: "\"\xff\"", want: "\xff", ok: true, shared: true, strict: true},
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		got, ok := Unquote(nil, in)
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("Unquote(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if shared := ok && len(got) > 0 && &got[0] == &in[1]; shared != (tt.shared && len(tt.want) > 0) {
			t.Errorf("Unquote(%q) aliases its input: %v, want %v", tt.in, shared, tt.shared)
		}
		s, sok := String(in)
		if sok != tt.ok || s != tt.want {
			t.Errorf("String(%q) = %q, %v; want %q, %v", tt.in, s, sok, tt.want, tt.ok)
		}
		wantOK, want := tt.ok && !tt.strict, tt.want
		if !wantOK {
			want = ""
		}
		if got, ok := UnquoteStrict(nil, in); ok != wantOK || string(got) != want {
			t.Errorf("UnquoteStrict(%q) = %q, %v; want %q, %v", tt.in, got, ok, want, wantOK)
		}
	}
}

func TestUnquoteAppendsEscapedToDst(t *testing.T) {
	buf := make([]byte, 0, 16)
	got, ok := Unquote(buf, []byte(`"a\nb"`))
	if !ok || string(got) != "a\nb" || &got[0] != &buf[:1][0] {
		t.Fatalf("Unquote = %q, %v; want a\\nb decoded into the caller's buffer", got, ok)
	}
}

func TestEachMember(t *testing.T) {
	tests := []struct {
		in    string
		names []string
		vals  []string
		ok    bool
	}{
		{in: `{}`, ok: true},
		{in: ` { "a" : 1 , "b\"c":[1,{"x":"}"}],"d":"\\"} `, names: []string{`"a"`, `"b\"c"`, `"d"`},
			vals: []string{`1`, `[1,{"x":"}"}]`, `"\\"`}, ok: true},
		{in: `{"a":true,"a":null}`, names: []string{`"a"`, `"a"`}, vals: []string{`true`, `null`}, ok: true},
		{in: `[1]`, ok: false},
		{in: `{"a":1`, names: []string{`"a"`}, vals: []string{`1`}, ok: false},
		{in: `{"a" 1}`, ok: false},
		{in: `{"a":}`, ok: false},
		{in: ``, ok: false},
	}
	for _, tt := range tests {
		var names, vals []string
		ok := EachMember([]byte(tt.in), func(n, v []byte) bool {
			names, vals = append(names, string(n)), append(vals, string(v))
			return true
		})
		if ok != tt.ok {
			t.Errorf("EachMember(%q) ok = %v, want %v", tt.in, ok, tt.ok)
		}
		if d := cmp.Diff(tt.names, names); d != "" {
			t.Errorf("EachMember(%q) names (-want +got):\n%s", tt.in, d)
		}
		if d := cmp.Diff(tt.vals, vals); d != "" {
			t.Errorf("EachMember(%q) values (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestEachMemberStops(t *testing.T) {
	n := 0
	ok := EachMember([]byte(`{"a":1,"b":2,"c":3}`), func(_, _ []byte) bool {
		n++
		return n < 2
	})
	if !ok || n != 2 {
		t.Fatalf("EachMember called fn %d times (ok %v), want 2 then stop", n, ok)
	}
}

func TestEachElement(t *testing.T) {
	tests := []struct {
		in   string
		vals []string
		ok   bool
	}{
		{in: `[]`, ok: true},
		{in: ` [ 1 , "a,]" ,{"b":[2]},null ] `, vals: []string{`1`, `"a,]"`, `{"b":[2]}`, `null`}, ok: true},
		{in: `[1,`, vals: []string{`1`}, ok: false},
		{in: `{}`, ok: false},
		{in: `[1 2]`, vals: []string{`1`}, ok: false},
	}
	for _, tt := range tests {
		var vals []string
		ok := EachElement([]byte(tt.in), func(v []byte) { vals = append(vals, string(v)) })
		if ok != tt.ok {
			t.Errorf("EachElement(%q) ok = %v, want %v", tt.in, ok, tt.ok)
		}
		if d := cmp.Diff(tt.vals, vals); d != "" {
			t.Errorf("EachElement(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestMember(t *testing.T) {
	v := []byte(`{"type":"object","t\u0079pe":2,"required":["a"],"n":{"type":3}}`)
	tests := []struct{ name, want string }{
		{"type", `"object"`},
		{"required", `["a"]`},
		{"n", `{"type":3}`},
		{"missing", ``},
	}
	for _, tt := range tests {
		if got := Member(v, tt.name); string(got) != tt.want {
			t.Errorf("Member(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Member([]byte(`{"t\u0079pe":2}`), "type"); string(got) != "2" {
		t.Errorf("Member matched an escaped name as %q, want 2", got)
	}
	if got := Member([]byte(`["type"]`), "type"); got != nil {
		t.Errorf("Member of an array = %q, want nil", got)
	}
}

func TestSkipString(t *testing.T) {
	tests := []struct {
		in   string
		i    int
		want int
	}{
		{`"abc"x`, 0, 5},
		{`x"a\"b"`, 1, 7},
		{`"a\\"b`, 0, 5},
		{`"a\\\"b"`, 0, 8},
		{`"abc`, 0, -1},
		{`abc`, 0, -1},
		{`"a"`, 3, -1},
	}
	for _, tt := range tests {
		if got := SkipString([]byte(tt.in), tt.i); got != tt.want {
			t.Errorf("SkipString(%q, %d) = %d, want %d", tt.in, tt.i, got, tt.want)
		}
	}
}
