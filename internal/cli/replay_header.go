package cli

import (
	"net/http"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// transportHeaders are the request headers an HTTP replay sets itself,
// which --header cannot replace.
func transportHeaders() []string {
	return []string{
		mcp.HeaderContentType, "Content-Length", mcp.HeaderAccept, "Host", "Transfer-Encoding", "Connection",
		mcp.HeaderProtocolVersion, mcp.HeaderMethod, mcp.HeaderName, mcp.HeaderSessionID,
	}
}

// parseRequestHeaders reads the --header values ('Name: value'). Its
// errors name the header, never its value: a token must not reach a
// terminal or a log.
func parseRequestHeaders(vals []string) (http.Header, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	h := make(http.Header, len(vals))
	for i, v := range vals {
		name, value, ok := strings.Cut(v, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case !ok:
			return nil, usagef("--header number %d: want 'Name: value' (no colon found)", i+1)
		case !mcp.IsToken(name):
			return nil, usagef("--header number %d: %q is not a header name", i+1, termtext.Escape(name))
		case !validHeaderValue(value):
			return nil, usagef("--header %s: the value holds a control character", name)
		case reservedHeader(name):
			return nil, usagef("--header %s: replay sets this header itself", name)
		}
		h.Add(name, value)
	}
	return h, nil
}

// reservedHeader reports whether name is a header the transport sets
// (Mcp-Param-* included: replay mirrors the arguments itself).
func reservedHeader(name string) bool {
	if strings.HasPrefix(http.CanonicalHeaderKey(name), mcp.HeaderParamPrefix) {
		return true
	}
	for _, r := range transportHeaders() {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}

// validHeaderValue reports whether v holds no control character but tab
// (RFC 9110 field-value).
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
