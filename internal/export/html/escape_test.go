package htmlexport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

func TestScriptWriter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain", `{"a":"b"}`, `{"a":"b"}`},
		{"end tag", `"</script>"`, `"\u003c/script\u003e"`},
		{"comment and amp", `"<!-- a&b"`, `"\u003c!-- a\u0026b"`},
		{"line separators", "\"a\u2028b\u2029c\"", `"a\u2028b\u2029c"`},
		{"bidi", "\"\u202eevil\u2066x\u2069\u200f\u061c\"", `"\u202eevil\u2066x\u2069\u200f\u061c"`},
		{"C1 and DEL", "\"\u0085\u009b\x7f\"", `"\u0085\u009b\u007f"`},
		{"invalid UTF-8", "\"a\xffb\"", `"a\ufffdb"`},
		{"other text", "\"é 日本 😀\"", "\"é 日本 😀\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Whole, then a byte at a time: a character split across
			// writes is held back, not mangled.
			for _, chunk := range []int{len(tt.in), 1} {
				var out bytes.Buffer
				sw := newScriptWriter(&out)
				for i := 0; i < len(tt.in); i += chunk {
					n, err := sw.Write([]byte(tt.in[i:min(i+chunk, len(tt.in))]))
					if err != nil || n != min(chunk, len(tt.in)-i) {
						t.Fatalf("Write = %d, %v", n, err)
					}
				}
				if err := sw.Flush(); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, out.String()); diff != "" {
					t.Errorf("chunk %d (-want +got):\n%s", chunk, diff)
				}
			}
		})
	}
}

// TestScriptWriterRoundTrip checks that what the writer makes of an
// encoded string decodes to the same string, and holds no character that
// could end a script element.
func TestScriptWriterRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"</script><img src=x onerror=alert(1)>", "a\u2028b\u2029c", "\u202e<!--\u2066&amp;", "\"\\\n\t\x00\x1f"} {
		var out bytes.Buffer
		sw := newScriptWriter(&out)
		if _, err := sw.Write(appendQuote(nil, s)); err != nil {
			t.Fatal(err)
		}
		if err := sw.Flush(); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(out.String(), "<>&\u2028\u2029\u202e\u2066") {
			t.Errorf("%q: escaped form %q still holds an unsafe character", s, out.String())
		}
		var got string
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%q: %v", out.String(), err)
		}
		if got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
}

func TestScriptWriterTornEnd(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	sw := newScriptWriter(&out)
	if _, err := sw.Write([]byte("\"a\xe2\x80")); err != nil {
		t.Fatal(err)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), `"a\ufffd`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestShown(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a\nb\tc", "a\nb\tc"},
		{"\u202eexe.gnp", `\u202eexe.gnp`},
		{"a\u2028b\x1b[2J", `a\u2028b\u001b[2J`},
		{"<img>", "<img>"}, // html/template escapes markup
	}
	for _, tt := range tests {
		if got := shown(tt.in); got != tt.want {
			t.Errorf("shown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
