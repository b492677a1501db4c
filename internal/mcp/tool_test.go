package mcp

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// TestToolDestructiveness holds the judgement to the spec's defaults
// (readOnlyHint false, destructiveHint true and meaningful only when
// readOnlyHint is false) and to how JavaScript clients read a repeated
// member: the last one wins.
func TestToolDestructiveness(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ann  string // "" for no annotations
		want Destructiveness
	}{
		{"no annotations", "", DestructiveByDefault},
		{"an empty object", `{}`, DestructiveByDefault},
		{"only a title", `{"title":"Deploy"}`, DestructiveByDefault},
		{"readOnlyHint false", `{"readOnlyHint":false}`, DestructiveByDefault},
		{"destructiveHint true", `{"destructiveHint":true}`, DestructiveDeclared},
		{"destructiveHint false", `{"destructiveHint":false}`, NotDestructive},
		{"readOnlyHint true", `{"readOnlyHint":true}`, ReadOnly},
		{"readOnlyHint true wins over destructiveHint", `{"destructiveHint":true,"readOnlyHint":true}`, ReadOnly},
		{"a repeated destructiveHint: the last wins", `{"destructiveHint":false,"destructiveHint":true}`, DestructiveDeclared},
		{"the last wins the other way", `{"destructiveHint":true, "destructiveHint" : false}`, NotDestructive},
		{"a repeated readOnlyHint: the last wins", `{"readOnlyHint":true,"readOnlyHint":false}`, DestructiveByDefault},
		{"an escaped name is the same name", `{"destructiveHint":false,"destructive\u0048int":true}`, DestructiveDeclared},
		{"names are case-sensitive", `{"DestructiveHint":false,"ReadOnlyHint":true}`, DestructiveByDefault},
		{"a string is no boolean", `{"readOnlyHint":"true","destructiveHint":"false"}`, DestructiveByDefault},
		{"null is no boolean", `{"destructiveHint":null}`, DestructiveByDefault},
		{"a later non-boolean hides an earlier boolean", `{"destructiveHint":false,"destructiveHint":0}`, DestructiveByDefault},
		{"not an object", `[{"readOnlyHint":true}]`, DestructiveByDefault},
		{"null annotations", `null`, DestructiveByDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var ann jsontext.Value
			if tt.ann != "" {
				ann = jsontext.Value(tt.ann)
			}
			got := ToolDestructiveness(ann)
			if got != tt.want {
				t.Errorf("ToolDestructiveness(%s) = %v, want %v", tt.ann, got, tt.want)
			}
			if want := tt.want == DestructiveByDefault || tt.want == DestructiveDeclared; got.Destructive() != want {
				t.Errorf("%v.Destructive() = %v, want %v", got, got.Destructive(), want)
			}
		})
	}
}

// TestLastMembers reads each name's last value, as JSON.parse does.
func TestLastMembers(t *testing.T) {
	t.Parallel()
	got := LastMembers(jsontext.Value(`{"a":1,"b":{"x":2},"a":3,"\u0062":4}`))
	want := map[string]jsontext.Value{"a": jsontext.Value(`3`), "b": jsontext.Value(`4`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LastMembers (-want +got):\n%s", diff)
	}
	if got := LastMembers(jsontext.Value(`[1]`)); got != nil {
		t.Errorf("LastMembers of an array = %v, want nil", got)
	}
}

// FuzzToolDestructiveness holds the judgement to a reference built on
// go-json-experiment's decoder (repeated names allowed, the last kept) on
// any valid JSON, and checks it never panics on anything else.
func FuzzToolDestructiveness(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"readOnlyHint":true}`, `{"destructiveHint":false,"destructiveHint":true}`,
		`{"destructive\u0048int":false}`, `{"readOnlyHint":"true"}`, `[true]`, `{"a":{"readOnlyHint":true}}`, `{"destructiveHint":tru`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ToolDestructiveness(jsontext.Value(s))
		if !jsontext.Value(s).IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		var m map[string]jsontext.Value
		if json.Unmarshal([]byte(s), &m, jsontext.AllowDuplicateNames(true)) != nil {
			m = nil // not an object
		}
		hint := func(name string) string {
			if v, ok := m[name]; ok {
				if k := v.Kind(); k == 't' || k == 'f' {
					return string(k)
				}
			}
			return ""
		}
		want := DestructiveByDefault
		switch r, d := hint("readOnlyHint"), hint("destructiveHint"); {
		case r == "t":
			want = ReadOnly
		case d == "t":
			want = DestructiveDeclared
		case d == "f":
			want = NotDestructive
		}
		if got != want {
			t.Errorf("ToolDestructiveness(%s) = %v, want %v", s, got, want)
		}
	})
}
