package replay

import (
	"testing"
)

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
