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
