package mock

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func TestSetMember(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, obj, member, val, want string
		wantErr                      bool
	}{
		{name: "replace", obj: `{"jsonrpc":"2.0","id":7,"result":{}}`, member: "id", val: `"x"`, want: `{"jsonrpc":"2.0","id":"x","result":{}}`},
		{name: "replace keeps spacing", obj: `{ "id" : 7 , "a":1 }`, member: "id", val: `8`, want: `{ "id" : 8 , "a":1 }`},
		{name: "append to empty", obj: `{}`, member: "id", val: `1`, want: `{"id":1}`},
		{name: "append", obj: `{"a":[1,{"id":2}]}`, member: "id", val: `1`, want: `{"a":[1,{"id":2}],"id":1}`},
		{name: "escaped name matches", obj: `{"\u0069d":1}`, member: "id", val: `2`, want: `{"\u0069d":2}`},
		{name: "name to quote", obj: `{}`, member: "a\"b", val: `null`, want: `{"a\"b":null}`},
		{name: "not an object", obj: `[1]`, member: "id", val: `1`, wantErr: true},
		{name: "duplicate names", obj: `{"id":1,"id":2}`, member: "id", val: `3`, wantErr: true},
		{name: "trailing data", obj: `{"id":1} {}`, member: "id", val: `3`, wantErr: true},
		{name: "torn", obj: `{"id":1`, member: "id", val: `3`, wantErr: true},
		{name: "invalid value", obj: `{}`, member: "id", val: `{`, wantErr: true},
		{name: "empty", obj: ``, member: "id", val: `1`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := setMember([]byte(tt.obj), tt.member, []byte(tt.val))
			if (err != nil) != tt.wantErr {
				t.Fatalf("setMember(%s, %q, %s) error = %v, want error %v", tt.obj, tt.member, tt.val, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("setMember(%s) (-want +got):\n%s", tt.obj, diff)
			}
		})
	}
}

func TestSetPath(t *testing.T) {
	t.Parallel()
	got, err := setPath([]byte(`{"id":1,"result":{"resultType":"input_required","requestState":"old"}}`),
		[]string{"result"}, "requestState", []byte(`"new"`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":1,"result":{"resultType":"input_required","requestState":"new"}}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := setPath([]byte(`{"id":1}`), []string{"result"}, "requestState", []byte(`"x"`)); err == nil {
		t.Errorf("setPath into a missing member: no error")
	}
}

// FuzzSetMember checks setMember on any input: it never panics; when it
// succeeds the result is one valid JSON object whose member holds the new
// value, and it succeeds on every valid object.
func FuzzSetMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"id":1}`, `{"jsonrpc":"2.0","id":"a","result":{"x":[1,2]}}`, `{"a":{"id":1}}`, `[]`, `{"id":1,"id":2}`, `{`, ``, `{"\u0069d":true}`} {
		f.Add([]byte(s), "id", []byte(`7`))
	}
	f.Add([]byte(`{"result":{}}`), "requestState", []byte(`"s"`))
	f.Fuzz(func(t *testing.T, obj []byte, name string, val []byte) {
		got, err := setMember(obj, name, val)
		validObj := jsontext.Value(obj).IsValid() && jsontext.Value(obj).Kind() == '{'
		validVal := jsontext.Value(val).IsValid()
		_, qerr := jsontext.AppendQuote(nil, name)
		if err != nil {
			if validObj && validVal && qerr == nil {
				t.Fatalf("setMember(%q, %q, %q) failed on valid input: %v", obj, name, val, err)
			}
			return
		}
		if !jsontext.Value(got).IsValid() || jsontext.Value(got).Kind() != '{' {
			t.Fatalf("setMember(%q, %q, %q) = %q: not a valid object", obj, name, val, got)
		}
		var top map[string]jsontext.Value
		if err := jsonUnmarshal(got, &top); err != nil {
			t.Fatalf("decoding %q: %v", got, err)
		}
		if string(top[name]) != string(val) {
			t.Fatalf("setMember(%q, %q, %q) = %q: member holds %q", obj, name, val, got, top[name])
		}
	})
}
