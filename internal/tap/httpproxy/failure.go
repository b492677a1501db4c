package httpproxy

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Failure is an exchange the client got an HTTP error status for, as
// Options.OnFailure hears of it. The capture has the whole exchange.
type Failure struct {
	// Status is the HTTP status the client got.
	Status int
	// Method and Path are the request's HTTP method and path.
	Method string
	Path   string
	// RPCMethod is the JSON-RPC method of the request: its Mcp-Method
	// header, else its body's method; "" when neither says (no body, a
	// batch, a body too large to keep, or no capture).
	RPCMethod string
	// TargetDown is set when mcptrail answered 502 itself because the
	// target could not be reached or failed before answering; Err then
	// says why, without the request's URL (whose query may hold a
	// secret). Empty otherwise.
	TargetDown bool
	Err        string
	// Refused, when not empty, says why mcptrail refused the request
	// itself (a foreign Host or Origin, a POST that is not JSON); it never
	// reached the target.
	Refused string
}

// reportFailure hands the exchange to Options.OnFailure when the client
// got a status of 400 or above.
func (p *Proxy) reportFailure(ex *exchange, h http.Header) {
	if p.onFailure == nil || ex.status < 400 {
		return
	}
	if p.fwd != nil && ex.xs.mode != modeMCP {
		// OAuth discovery probes paths that 404 as a matter of course.
		return
	}
	f := Failure{Status: ex.status, Method: ex.method, Path: ex.path, RPCMethod: h.Get(mcp.HeaderMethod),
		TargetDown: ex.upstreamErr != "", Err: ex.upstreamErr}
	if f.RPCMethod == "" && ex.req != nil {
		ex.req.mu.Lock()
		raw := ex.req.raw
		ex.req.mu.Unlock()
		if raw != "" {
			f.RPCMethod = wire.Decode([]byte(raw)).Method
		}
	}
	p.onFailure(f)
}

// upstreamCause is what a transport error says without the URL a
// *url.Error names: under --redact-* the target's query is a secret.
func upstreamCause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}
