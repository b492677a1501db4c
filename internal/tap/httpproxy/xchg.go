package httpproxy

import (
	"io"
	"net/http"
	"net/url"
	"time"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// xstate is what an exchange that may not be MCP keeps for its
// capture.TypeExchange record. mode is set at the start, or by the
// request tap under its mu (the response side reads it after
// bodyTap.reserve, which takes that lock); the heads are written by one
// side each and read once the handler is done.
type xstate struct {
	mode  mode
	start time.Time
	url   string // the request's absolute URL, credentials redacted
	// reqHeaders are the kept request headers, for the record or for a
	// late c2s frame (a bodyless request answered with an event stream).
	reqHeaders  map[string]string
	respHeaders map[string]string
	req, resp   head
	intercepted bool
	refused     string
	err         string
	// slot is the record's place in the capture, reserved before the
	// answer's last bytes are handed on (so the record comes before
	// whatever the client does next), or when the record is written.
	slot *slot
	// onDocument, when not nil, is handed the response body of a
	// successful exchange once it ended (the reverse proxy's metadata
	// check).
	onDocument func(body []byte)
}

// head is the start of a body, as an exchange record keeps it.
type head struct {
	buf  []byte
	size int64
	cut  bool
}

// keep adds p, up to capture.MaxExchangeBody bytes in all.
func (h *head) keep(p []byte) {
	h.size += int64(len(p))
	room := capture.MaxExchangeBody - len(h.buf)
	if len(p) > room {
		p, h.cut = p[:max(room, 0)], true
	}
	h.buf = append(h.buf, p...)
}

// text returns the head as recorded: credentials redacted; a body that is
// not UTF-8 text (compressed, binary) is left out, its size kept.
func (h *head) text() string {
	b := h.buf
	if h.cut {
		// The cut may split a character.
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	if len(b) == 0 || !utf8.Valid(b) {
		return ""
	}
	return redact.CredentialBody(string(b))
}

// headTap passes a non-MCP response body on unchanged, keeping its head.
// The exchange's record is reserved before the body's last bytes are
// handed on: on the read that completes its Content-Length, or at its end.
type headTap struct {
	rc io.ReadCloser
	ex *exchange
	// length is the body's Content-Length, -1 when unknown.
	length int64
}

func (t *headTap) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	xs := t.ex.xs
	xs.resp.keep(p[:n])
	if err != nil || t.length >= 0 && xs.resp.size >= t.length {
		t.ex.reserveRecord()
	}
	if err != nil && err != io.EOF && xs.err == "" {
		xs.err = "response body cut short: " + err.Error()
	}
	return n, err
}

// reserveRecord reserves the exchange record's seq, once.
func (ex *exchange) reserveRecord() {
	if ex.xs.slot == nil && !ex.p.q.off {
		ex.xs.slot = ex.p.q.reserveSeq(capture.TypeExchange)
	}
}

func (t *headTap) Close() error { return t.rc.Close() }

// exchangeResponseHeaders are the response headers an exchange record
// keeps: a frame envelope's, and Location (a redirect's target, with its
// credentials redacted: an authorization code travels in it).
func exchangeResponseHeaders(h http.Header) map[string]string {
	out := responseHeaders(h)
	if loc := h.Get("Location"); loc != "" {
		v := present
		if u, err := url.Parse(loc); err == nil {
			v = redact.CredentialURL(u)
		}
		out = put(out, "Location", v)
	}
	return out
}

// recordExchange writes the exchange's record when it was not MCP. It
// runs once the handler is done with the request and the response.
func (ex *exchange) recordExchange() {
	xs := ex.xs
	if ex.req != nil {
		ex.req.mu.Lock()
		defer ex.req.mu.Unlock()
	}
	if xs.mode != modeExchange {
		return
	}
	if xs.onDocument != nil && success(ex.status) && !xs.resp.cut {
		xs.onDocument(xs.resp.buf)
	}
	if ex.p.q.off {
		return
	}
	x := &capture.Exchange{
		ID: ex.id, Method: ex.method, URL: xs.url, Status: ex.status,
		DurationUS:  ex.p.q.now().Sub(xs.start).Microseconds(),
		ReqHeaders:  xs.reqHeaders,
		RespHeaders: xs.respHeaders,
		ReqBody:     xs.req.text(), RespBody: xs.resp.text(),
		ReqSize: xs.req.size, RespSize: xs.resp.size, ReqCut: xs.req.cut, RespCut: xs.resp.cut,
		Intercepted: xs.intercepted, Refused: xs.refused, Error: xs.err,
	}
	ex.reserveRecord()
	ex.p.q.fill(xs.slot, func(r *capture.Record) {
		r.Time, r.Conn, r.Exchange = xs.start, ex.conn, x
	})
}

// success reports whether an HTTP status is 2xx.
func success(status int) bool { return status >= 200 && status <= 299 }
