package diff

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
		want []Delta
	}{
		{name: "equal", a: `{"a":1,"b":[true,null]}`, b: `{"a":1,"b":[true,null]}`},
		{name: "layout and member order never differ", a: `{"a":1, "b":{"c":"x","d":2}}`, b: " {\"b\":{\"d\":2,\"c\":\"x\"},\n\"a\":1} "},
		{name: "numbers and strings as values", a: `[1.0,1e2,"\u0041","\/"]`, b: `[1,100,"A","/"]`},
		{name: "member changed", a: `{"a":{"b":1}}`, b: `{"a":{"b":2}}`,
			want: []Delta{{Path: "/a/b", Op: OpChanged, Old: "1", New: "2"}}},
		{name: "members added and removed", a: `{"x":1,"y":{"z":true}}`, b: `{"x":1,"w":[ 1, 2 ]}`,
			want: []Delta{{Path: "/y", Op: OpRemoved, Old: `{"z":true}`}, {Path: "/w", Op: OpAdded, New: "[1,2]"}}},
		{name: "array grows and shrinks at its end", a: `[1,2,3]`, b: `[1,5]`,
			want: []Delta{{Path: "/1", Op: OpChanged, Old: "2", New: "5"}, {Path: "/2", Op: OpRemoved, Old: "3"}}},
		{name: "array element added", a: `{"c":[]}`, b: `{"c":[{"t":"x"}]}`,
			want: []Delta{{Path: "/c/0", Op: OpAdded, New: `{"t":"x"}`}}},
		{name: "type changed", a: `{"a":"1"}`, b: `{"a":1}`,
			want: []Delta{{Path: "/a", Op: OpChanged, Old: `"1"`, New: "1"}}},
		{name: "booleans", a: `[true,false]`, b: `[false,false]`,
			want: []Delta{{Path: "/0", Op: OpChanged, Old: "true", New: "false"}}},
		{name: "null to object", a: `null`, b: `{}`,
			want: []Delta{{Path: "", Op: OpChanged, Old: "null", New: "{}"}}},
		{name: "pointer escapes ~ and /", a: `{"a/b":1,"m~n":1,"":1}`, b: `{"a/b":2,"m~n":2,"":2}`,
			want: []Delta{
				{Path: "/a~1b", Op: OpChanged, Old: "1", New: "2"},
				{Path: "/m~0n", Op: OpChanged, Old: "1", New: "2"},
				{Path: "/", Op: OpChanged, Old: "1", New: "2"},
			}},
		{name: "escaped names compare as their value", a: `{"\u0061":1}`, b: `{"a":1}`},
		{name: "a repeated name: the last counts", a: `{"a":1,"a":2}`, b: `{"a":2}`},
		{name: "strings keep their text", a: `"caf\u00e9"`, b: `"cafe"`,
			want: []Delta{{Path: "", Op: OpChanged, Old: `"caf\u00e9"`, New: `"cafe"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := JSON([]byte(tt.a), []byte(tt.b))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("JSON(%s, %s) (-want +got):\n%s", tt.a, tt.b, diff)
			}
		})
	}
}

func TestJSONInvalid(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ a, b string }{
		{`{"a":`, `{}`},
		{`{}`, `{} {}`},
		{``, `1`},
		{`1`, `[1,]`},
	} {
		if got, err := JSON([]byte(tt.a), []byte(tt.b)); !errors.Is(err, ErrInvalidJSON) {
			t.Errorf("JSON(%q, %q) = %v, %v; want ErrInvalidJSON", tt.a, tt.b, got, err)
		}
	}
}
