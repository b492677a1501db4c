package mcp

import (
	"net/http"
	"strings"
	"testing"
)

// TestHeaderParamPrefixCanonical checks the prefix matches canonicalized
// header names, which is how the tap and redaction compare them.
func TestHeaderParamPrefixCanonical(t *testing.T) {
	for _, name := range []string{"mcp-param-region", "MCP-PARAM-API-KEY", "Mcp-Param-X"} {
		if c := http.CanonicalHeaderKey(name); !strings.HasPrefix(c, HeaderParamPrefix) {
			t.Errorf("canonical %q does not start with %q", c, HeaderParamPrefix)
		}
	}
}

func TestFailureStatus(t *testing.T) {
	for _, c := range []struct {
		method string
		status int
		want   bool
	}{
		{"POST", 200, false}, {"POST", 202, false}, {"POST", 302, false},
		{"POST", 400, false}, {"POST", 401, true}, {"POST", 403, true}, {"POST", 404, true},
		{"POST", 405, true}, {"GET", 405, false}, {"DELETE", 405, false}, {"GET", 404, true},
		{"POST", 429, true}, {"POST", 500, true}, {"POST", 502, true}, {"GET", 503, true},
	} {
		if got := FailureStatus(c.method, c.status); got != c.want {
			t.Errorf("FailureStatus(%s, %d) = %v, want %v", c.method, c.status, got, c.want)
		}
	}
}
