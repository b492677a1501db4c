package otlp

import "testing"

// TestRequestID checks a string id is unquoted as JSON (not as a Go
// literal, whose escapes differ) and anything else is shown as written.
func TestRequestID(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`7`, `7`},
		{`"abc"`, `abc`},
		{`"a\/b"`, `a/b`},
		{`"\ud83d\ude00"`, "😀"},
		{`"tab\t"`, "tab\t"},
		{`null`, `null`},
		{`"bad\x"`, `"bad\x"`},
	}
	for _, tt := range tests {
		if got := requestID([]byte(tt.raw)); got != tt.want {
			t.Errorf("requestID(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}
