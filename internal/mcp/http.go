package mcp

import "strings"

// HTTP header names of the Streamable HTTP transport (spec 2.x), spelled as
// the HTTP tap keeps them in a frame's envelope (docs/capture-format.md),
// which is also how envelope readers look them up. Some are not in Go's
// canonical form (MCP-Protocol-Version, Last-Event-ID): http.Header.Get
// finds them either way, but an envelope map needs the exact spelling.
const (
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	// HeaderParamPrefix starts the Mcp-Param-{Name} headers that mirror
	// tool arguments (x-mcp-header), in canonical form.
	HeaderParamPrefix = "Mcp-Param-"
	HeaderLastEventID = "Last-Event-ID"

	HeaderContentType     = "Content-Type"
	HeaderAccept          = "Accept"
	HeaderOrigin          = "Origin"
	HeaderAuthorization   = "Authorization"
	HeaderWWWAuthenticate = "WWW-Authenticate"
	HeaderCookie          = "Cookie"
	HeaderSetCookie       = "Set-Cookie"
)

// Media types of the Streamable HTTP transport: a POST is answered with
// one JSON message or an event stream.
const (
	MediaTypeJSON        = "application/json"
	MediaTypeEventStream = "text/event-stream"
)

// IsToken reports whether s is an RFC 9110 token (1*tchar): what a header
// name, such as an x-mcp-header annotation's, and an auth scheme must be.
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// FailureStatus reports whether an HTTP answer with status to a request of
// method (POST, GET, DELETE) is a failure worth telling the user about,
// rather than one of the protocol's ordinary answers (spec 5.2, 5.3):
//   - 400 is how Streamable HTTP rejects a message at the protocol level
//     (-32020, -32022, a missing session, a dual-era client's probe
//     answered by a legacy server): the JSON-RPC error or the call's
//     http-error status shows it;
//   - 405 to a GET or DELETE is a server without the legacy standalone
//     stream or session deletion, which clients expect.
//
// Every other status from 401 up is a failure: 401 and 403 (auth, Origin),
// 404 (unknown method or terminated session), 405 to a POST, 5xx and the
// 502 of a target that could not be reached.
func FailureStatus(method string, status int) bool {
	switch {
	case status <= 400:
		return false
	case status == 405:
		return method == "POST"
	}
	return true
}
