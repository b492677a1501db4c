package httpproxy

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// modifyResponse wraps the response body so each message in it is
// recorded as it passes.
func (p *Proxy) modifyResponse(resp *http.Response) error {
	ex := exchangeOf(resp.Request)
	if ex == nil {
		return nil
	}
	if ex.req != nil {
		ex.req.reserve()
	}
	ex.status = resp.StatusCode
	p.challengeCheck(resp)
	if xs := ex.xs; xs != nil && !ex.answerIsMCP(resp) {
		xs.respHeaders = exchangeResponseHeaders(resp.Header)
		if resp.ContentLength >= 0 && resp.ContentLength <= capture.MaxExchangeBody {
			// A small document of known length: its record comes
			// before whatever the client does once it has the headers
			// (follows a redirect, asks the next endpoint).
			ex.reserveRecord()
		}
		resp.Body = &headTap{rc: resp.Body, ex: ex, length: resp.ContentLength}
		return nil
	}
	env := ex.envelope(resp.StatusCode, responseHeaders(resp.Header))
	if isEventStream(resp.Header.Get(mcp.HeaderContentType)) {
		resp.Body = &sseTap{rc: resp.Body, p: p, ex: ex, env: env}
	} else {
		resp.Body = &bodyTap{rc: resp.Body, p: p, ex: ex, dir: capture.S2C, env: env}
	}
	return nil
}

func isEventStream(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), mcp.MediaTypeEventStream)
}

// errorHandler answers 502 when the target failed before a response, and
// records it; a client that went away gets a note instead.
func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	ex := exchangeOf(r)
	if ex == nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	if ex.req != nil {
		ex.req.reserve()
	}
	if ex.xs != nil && ex.xs.mode != modeMCP {
		ex.upstreamFailed(w, r, err)
		return
	}
	if r.Context().Err() != nil {
		ex.note(NoteClientGone, fmt.Sprintf("the client went away before the response: %v", err))
		return
	}
	ex.status, ex.upstreamErr = http.StatusBadGateway, upstreamCause(err)
	p.record(ex.frame(capture.S2C, ex.envelope(http.StatusBadGateway, nil), nil))
	cause := any(err)
	if ex.url != "" {
		// The forward proxy's URL is in the envelope, redacted; the
		// error would quote it whole.
		cause = ex.upstreamErr
	}
	ex.note(NoteUpstreamError, fmt.Sprintf("answered 502: %v", cause))
	w.WriteHeader(http.StatusBadGateway)
}
