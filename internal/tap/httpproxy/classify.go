package httpproxy

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// mode is how an exchange that is not known to be MCP (any exchange of
// the forward proxy, an exchange off the MCP endpoint of the reverse
// proxy) is captured. It is made from the request alone: from its
// headers, else when the request body's JSON value completes (before
// those bytes are handed on), else when the body ends. An answer that
// begins first (a 401 before the target read the body, a 502 for an
// origin never reached) waits for the body's first value to be read from
// the client (bodyTap.decide); the bytes so read still go to the target,
// should it read on.
type mode uint8

const (
	// modeUndecided: a request body is on its way; its first JSON value
	// will tell.
	modeUndecided mode = iota
	// modeMCP: frames, SSE events and status frames, as on the MCP
	// endpoint.
	modeMCP
	// modeExchange: one capture.TypeExchange record for the whole
	// exchange.
	modeExchange
)

// startMode is the mode a request's headers decide. A request naming an
// MCP session (Mcp-Session-Id: a POST, the standalone GET stream, the
// DELETE that ends the session) or its JSON-RPC method (Mcp-Method, a
// 2026-07-28 POST) is MCP; a GET that accepts only an event
// stream's kind of answer is the standalone stream; a request with a body
// waits for it; anything else (metadata documents, the authorization
// endpoint) is an exchange. MCP-Protocol-Version alone proves nothing:
// SDK clients send it on their OAuth discovery requests too.
func startMode(r *http.Request, hasBody bool) mode {
	switch {
	case r.Header.Get(mcp.HeaderSessionID) != "":
		return modeMCP
	case hasBody && r.Header.Get(mcp.HeaderMethod) != "":
		return modeMCP
	case hasBody:
		return modeUndecided
	case r.Method == http.MethodGet && acceptsEventStream(r.Header):
		return modeMCP
	}
	return modeExchange
}

// acceptsEventStream reports whether a request's Accept names
// text/event-stream.
func acceptsEventStream(h http.Header) bool {
	for _, v := range h.Values(mcp.HeaderAccept) {
		for _, part := range strings.Split(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(mt), mcp.MediaTypeEventStream) {
				return true
			}
		}
	}
	return false
}

// looksJSONRPC reports whether b, the start of a request body (perhaps
// cut short), is a JSON-RPC message or batch: an object (or a batch's
// first element) with a "jsonrpc" or "method" member among the members
// b holds whole. OAuth bodies (registration metadata, form-encoded token
// requests) have neither.
func looksJSONRPC(b []byte) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return false
	}
	if tok.Kind() == '[' {
		if tok, err = dec.ReadToken(); err != nil {
			return false
		}
	}
	if tok.Kind() != '{' {
		return false
	}
	for {
		name, err := dec.ReadToken()
		if err != nil || name.Kind() != '"' {
			return false
		}
		if s := name.String(); s == "jsonrpc" || s == "method" {
			return true
		}
		if err := dec.SkipValue(); err != nil {
			return false
		}
	}
}
