package termtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONWriter(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"ascii", `{"a":"b"}`, `{"a":"b"}`},
		{"text kept", `{"a":"café 東京 🙂"}`, `{"a":"café 東京 🙂"}`},
		{"C1 and bidi", "{\"a\":\"x\u009by\u202ez\u2066\u200f\u061c\"}", `{"a":"x\u009by\u202ez\u2066\u200f\u061c"}`},
		{"DEL", "{\"\x7f\":1}", `{"\u007f":1}`},
		{"invalid byte", "{\"a\":\"x\x9by\"}", `{"a":"x\ufffdy"}`},
		{"torn at the end", "\"\xe2\x80", `"\ufffd`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Every split of the input into two writes gives the same output.
			for cut := 0; cut <= len(tt.in); cut++ {
				var out bytes.Buffer
				w := NewJSONWriter(&out)
				if _, err := w.Write([]byte(tt.in[:cut])); err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write([]byte(tt.in[cut:])); err != nil {
					t.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, out.String()); diff != "" {
					t.Fatalf("cut at %d (-want +got):\n%s", cut, diff)
				}
			}
		})
	}
}

// FuzzJSONWriter checks that any JSON value decodes to the same thing
// after the writer, and that its output holds no C1 or bidi control.
func FuzzJSONWriter(f *testing.F) {
	f.Add("x\u009by\u202e", 3)
	f.Add(hostile, 7)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if !strings.ContainsRune(s, 0) && len(s) > 0 {
			in, err := json.Marshal(map[string]string{s: s})
			if err != nil {
				t.Fatal(err)
			}
			cut = min(max(cut, 0), len(in))
			var out bytes.Buffer
			w := NewJSONWriter(&out)
			w.Write(in[:cut])
			w.Write(in[cut:])
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			var a, b map[string]string
			if err := json.Unmarshal(in, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out.Bytes(), &b); err != nil {
				t.Fatalf("output %q is not JSON: %v", out.Bytes(), err)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("decodes differently (-before +after):\n%s", diff)
			}
			checkSafe(t, out.String(), false)
		}
	})
}

// FuzzJSONClean holds the word-at-a-time jsonClean to a byte loop.
func FuzzJSONClean(f *testing.F) {
	f.Add([]byte("plain ascii text, longer than a word"))
	f.Add([]byte("0123456\x7f89"))
	f.Add([]byte("\x7e\x7e\x7e\x7e\x7e\x7e\x7e\x80"))
	f.Fuzz(func(t *testing.T, p []byte) {
		want := true
		for _, c := range p {
			if c >= 0x7f {
				want = false
			}
		}
		if got := jsonClean(p); got != want {
			t.Fatalf("jsonClean(%q) = %v, want %v", p, got, want)
		}
	})
}
