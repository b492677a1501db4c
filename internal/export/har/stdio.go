package harexport

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/store"
)

// stdioEntries returns one entry per call of snap: POST to
// mcp+stdio://LABEL/METHOD/TARGET, the request frame as the body, the
// response frame (result or JSON-RPC error) as the content with status
// 200, or status 0 while the call is pending.
func (hw *Writer) stdioEntries(snap *store.Snapshot) []entry {
	n := snap.Calls.Len()
	entries := make([]entry, 0, n)
	for i := range n {
		entries = append(entries, hw.stdioEntry(snap.Session.Label, snap.Calls.At(i)))
	}
	return entries
}

func (hw *Writer) stdioEntry(label string, c store.Call) entry {
	req := hw.stdio[c.RequestSeq]
	e := entry{
		StartedDateTime: harTime(c.Start),
		Request: request{
			Method: "POST", URL: stdioURL(label, c.Method, c.Target), HTTPVersion: "JSON-RPC 2.0",
			Cookies: []struct{}{}, Headers: []nameValue{}, QueryString: []nameValue{},
			PostData:    &postData{MimeType: "application/json", Text: req.text},
			HeadersSize: -1, BodySize: len(req.text),
		},
		Response: response{
			HTTPVersion: "JSON-RPC 2.0", Cookies: []struct{}{}, Headers: []nameValue{},
			Content:     content{MimeType: "application/json"},
			HeadersSize: -1, BodySize: -1,
		},
		Timings:  timings{Send: 0, Wait: -1, Receive: -1},
		Mcptrail: stdioMeta(c),
	}
	if c.ResponseSeq != 0 {
		resp := hw.stdio[c.ResponseSeq]
		e.Response.Status, e.Response.StatusText = 200, "OK"
		e.Response.Content = content{Size: len(resp.text), MimeType: "application/json", Text: resp.text}
		if resp.base64 {
			e.Response.Content.Encoding = "base64"
		}
		e.Response.BodySize = len(resp.text)
		e.Time = c.DurationMS
		e.Timings.Wait, e.Timings.Receive = c.DurationMS, 0
	}
	return e
}

// stdioMeta is the _mcptrail field of call c's entry.
func stdioMeta(c store.Call) stdioInfo {
	m := stdioInfo{Call: c.Index, Dir: string(c.Dir), Method: c.Method, Target: c.Target, Status: c.Status,
		Era: c.Era, Round: c.Round, RequestSeq: c.RequestSeq, ResponseSeq: c.ResponseSeq}
	if raw := c.ID.Raw(); raw != "" {
		m.ID = jsontext.Value(raw)
	}
	if c.Operation >= 0 {
		op := c.Operation
		m.Operation = &op
	}
	if c.Parent >= 0 {
		p := c.Parent
		m.Parent = &p
	}
	if c.Error != nil {
		m.Error = &rpcError{Code: c.Error.Code, Message: c.Error.Message}
	}
	return m
}

// stdioURL is the pseudo-URL of a stdio call: mcp+stdio://LABEL/METHOD,
// then /TARGET when the call has one. METHOD and TARGET are
// percent-encoded (every byte but ALPHA, DIGIT, "-", ".", "_" and "~"), so
// a "/" in a method or a URI target stays inside its segment; LABEL, a
// host, has every other byte replaced by "-" (URL parsers refuse escapes
// in a host), and is "stdio" when empty.
func stdioURL(label, method, target string) string {
	host := []byte(label)
	for i, c := range host {
		if !unreserved(c) {
			host[i] = '-'
		}
	}
	if len(host) == 0 {
		host = []byte("stdio")
	}
	u := "mcp+stdio://" + string(host) + "/" + escape(method)
	if target != "" {
		u += "/" + escape(target)
	}
	return u
}

// escape percent-encodes every byte of s that is not unreserved (RFC 3986).
func escape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := range len(s) {
		c := s[i]
		if unreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// unreserved reports whether c is an unreserved URI character (RFC 3986).
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
