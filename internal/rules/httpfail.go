package rules

import (
	"fmt"
	"net/http"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// failure raises http-error-status for the first frame of an HTTP answer
// whose status is a failure (mcp.FailureStatus: 401, 403, 404, 5xx, ...;
// not the protocol's 400, nor 405 to a GET or DELETE), once per exchange:
// the status frame of an answer without a JSON-RPC message, or the
// message (a JSON-RPC error, say) that answers the exchange's request.
//
// A 401 with a WWW-Authenticate challenge to a request that carried no
// Authorization is not flagged: it is how the authorization flow starts
// (the oauth rules and `mcptrail auth` judge that flow).
func (h *HTTP) failure(f *store.Frame) {
	r := f.Record
	env := r.HTTP
	if env.Exchange == "" {
		return
	}
	if r.Dir == capture.C2S {
		if _, ok := env.Headers[mcp.HeaderAuthorization]; !ok {
			if h.anonymous == nil {
				h.anonymous = make(map[string]bool)
			}
			h.anonymous[env.Exchange] = true
		}
		return
	}
	anonymous := h.anonymous[env.Exchange]
	delete(h.anonymous, env.Exchange)
	if !mcp.FailureStatus(env.Method, env.Status) || h.failed[env.Exchange] {
		return
	}
	if anonymous && env.Status == http.StatusUnauthorized && env.Headers[mcp.HeaderWWWAuthenticate] != "" {
		return
	}
	if f.InExchange && f.Call < 0 {
		// A notification ahead of the answer on an event stream: the
		// answer will name the call.
		return
	}
	if h.failed == nil {
		h.failed = make(map[string]bool)
	}
	h.failed[env.Exchange] = true
	what := fmt.Sprintf("%s %s", env.Method, env.Path)
	switch seq, ok := h.notifications[env.Exchange]; {
	case f.Call >= 0:
		what = f.CallMethod
	case ok:
		what = fmt.Sprintf("the notification POSTed at seq %d", seq)
	}
	msg := fmt.Sprintf("%s was answered HTTP %d %s", what, env.Status, http.StatusText(env.Status))
	if a := env.Headers[mcp.HeaderWWWAuthenticate]; a != "" {
		msg += "; " + mcp.HeaderWWWAuthenticate + ": " + a
	}
	h.add(finding.New(finding.HTTPErrorStatus, r.Seq, "%s", msg))
}
