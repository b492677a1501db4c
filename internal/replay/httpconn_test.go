package replay

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadEvents: the data of each SSE event, multi-line data joined with
// newlines, comments and other fields ignored, CRLF accepted, an event cut
// by the end of the stream dropped.
func TestReadEvents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     []string
	}{
		{"one", "event: message\ndata: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"two, crlf", "data: 1\r\n\r\nid: 7\r\ndata: 2\r\n\r\n", []string{"1", "2"}},
		{"multi-line", "data: [1,\ndata: 2]\n\n", []string{"[1,\n2]"}},
		{"comment and empty event", ": ping\n\nretry: 10\n\n", nil},
		{"no space", "data:x\n\n", []string{"x"}},
		{"torn", "data: 1\n\ndata: 2", []string{"1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			if err := readEvents(strings.NewReader(tc.in), func(b []byte) { got = append(got, string(b)) }); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHeaderValue: safe values go as they are; non-ASCII, control
// characters, surrounding whitespace and the sentinel itself are base64.
func TestHeaderValue(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"search", "search"},
		{"file:///a b", "file:///a b"},
		{"café", "=?base64?Y2Fmw6k=?="},
		{" x", "=?base64?IHg=?="},
		{"a\nb", "=?base64?YQpi?="},
		{"=?base64?eA==?=", "=?base64?PT9iYXNlNjQ/ZUE9PT89?="},
	}
	for _, tc := range cases {
		if got := headerValue(tc.in); got != tc.want {
			t.Errorf("headerValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
