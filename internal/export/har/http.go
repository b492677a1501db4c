package harexport

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// exchanges collects the HTTP exchanges of a capture in order of first
// frame.
type exchanges struct {
	list []*exchange
	byID map[string]*exchange
}

func newExchanges() *exchanges { return &exchanges{byID: make(map[string]*exchange)} }

// exchange is one HTTP request and its response, from their frames.
type exchange struct {
	id, conn, method, path  string
	url                     string // absolute, from a forward proxy's envelope
	reqHeaders, respHeaders map[string]string
	reqBodies, respBodies   []body
	start, reqEnd           time.Time // first and last request frame
	respStart, respEnd      time.Time // first and last response frame
	status                  int
	seqs                    []uint64
}

// frame adds f to its exchange; a frame without an envelope is left out.
func (xs *exchanges) frame(f *store.Frame) {
	if f.Record == nil || f.Record.HTTP == nil || f.Record.HTTP.Exchange == "" {
		return
	}
	env := f.Record.HTTP
	x := xs.byID[env.Exchange]
	if x == nil {
		x = &exchange{id: env.Exchange, conn: f.Conn, method: env.Method, path: env.Path, url: env.URL}
		xs.byID[env.Exchange] = x
		xs.list = append(xs.list, x)
	}
	x.seqs = append(x.seqs, f.Seq)
	b := recordBody(f.Record)
	if f.Dir == capture.C2S {
		if x.start.IsZero() {
			x.start = f.Time
		}
		x.reqEnd = f.Time
		x.reqHeaders = merge(x.reqHeaders, env.Headers)
		if b.text != "" {
			x.reqBodies = append(x.reqBodies, b)
		}
		return
	}
	if x.respStart.IsZero() {
		x.respStart = f.Time
	}
	x.respEnd = f.Time
	if env.Status != 0 {
		x.status = env.Status
	}
	x.respHeaders = merge(x.respHeaders, env.Headers)
	if b.text != "" {
		x.respBodies = append(x.respBodies, b)
	}
}

// merge adds the headers of h to m (made when nil) and returns it.
func merge(m, h map[string]string) map[string]string {
	if len(h) == 0 {
		return m
	}
	if m == nil {
		m = make(map[string]string, len(h))
	}
	for k, v := range h {
		m[k] = v
	}
	return m
}

// entries returns one entry per exchange; target is the session's upstream
// URL, whose origin the request paths are shown on.
func (xs *exchanges) entries(target string) []timed {
	origin := originOf(target)
	entries := make([]timed, 0, len(xs.list))
	for _, x := range xs.list {
		entries = append(entries, timed{seq: x.seqs[0], e: x.entry(origin)})
	}
	return entries
}

func (x *exchange) entry(origin string) entry {
	start := x.start
	if start.IsZero() {
		start = x.respStart
	}
	e := entry{
		StartedDateTime: harTime(start),
		Request: request{
			Method: x.method, URL: x.requestURL(origin), HTTPVersion: "HTTP/1.1",
			Cookies: []struct{}{}, Headers: headers(x.reqHeaders), QueryString: []nameValue{},
			HeadersSize: -1, BodySize: 0,
		},
		Response: response{
			Status: x.status, StatusText: http.StatusText(x.status), HTTPVersion: "HTTP/1.1",
			Cookies: []struct{}{}, Headers: headers(x.respHeaders), RedirectURL: "",
			HeadersSize: -1, BodySize: -1,
		},
		Timings:  timings{Send: ms(x.start, x.reqEnd), Wait: -1, Receive: -1},
		Mcptrail: httpInfo{Exchange: x.id, Conn: x.conn, Seqs: x.seqs},
	}
	if len(x.reqBodies) > 0 {
		text := joinBodies(x.reqBodies)
		e.Request.PostData = &postData{MimeType: mimeOf(x.reqHeaders, "application/json"), Text: text}
		e.Request.BodySize = len(text)
	}
	e.Response.Content = x.content()
	if x.status != 0 || !x.respStart.IsZero() {
		e.Response.BodySize = e.Response.Content.Size
		e.Timings.Wait = ms(x.reqEnd, x.respStart)
		e.Timings.Receive = ms(x.respStart, x.respEnd)
	}
	e.Time = e.Timings.Send + max(e.Timings.Wait, 0) + max(e.Timings.Receive, 0)
	return e
}

// originOf returns the scheme and host of target (an http or https URL,
// whose userinfo may hold a redaction that url.Parse refuses), or
// http://localhost when it has none.
func originOf(target string) string {
	scheme, rest, ok := strings.Cut(target, "://")
	if !ok || scheme == "" {
		return "http://localhost"
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if rest == "" {
		return "http://localhost"
	}
	return strings.ToLower(scheme) + "://" + rest
}

// requestURL is the exchange's absolute URL: the one a forward proxy
// recorded, else the session target's origin followed by the path.
func (x *exchange) requestURL(origin string) string {
	if x.url != "" {
		return x.url
	}
	return requestURL(origin, x.path)
}

// requestURL is origin followed by path ("/" when empty).
func requestURL(origin, path string) string {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return origin + (&url.URL{Path: path}).EscapedPath()
}

// content is the response body: the SSE events re-framed as data: lines,
// or the body as received.
func (x *exchange) content() content {
	mime := mimeOf(x.respHeaders, "")
	var text string
	if strings.HasPrefix(mime, "text/event-stream") {
		var b strings.Builder
		for _, ev := range x.respBodies {
			for line := range strings.SplitSeq(ev.text, "\n") {
				b.WriteString("data: " + line + "\n")
			}
			b.WriteString("\n")
		}
		text = b.String()
	} else {
		text = joinBodies(x.respBodies)
	}
	c := content{Size: len(text), MimeType: mime, Text: text}
	if len(x.respBodies) == 1 && x.respBodies[0].base64 {
		c.Encoding = "base64"
	}
	return c
}

// joinBodies joins the texts of bs with newlines.
func joinBodies(bs []body) string {
	texts := make([]string, len(bs))
	for i, b := range bs {
		texts[i] = b.text
	}
	return strings.Join(texts, "\n")
}

// mimeOf returns the Content-Type of h, or def.
func mimeOf(h map[string]string, def string) string {
	for k, v := range h {
		if strings.EqualFold(k, "Content-Type") && v != "" {
			return v
		}
	}
	return def
}

// headers returns h as HAR name/value pairs sorted by name.
func headers(h map[string]string) []nameValue {
	out := make([]nameValue, 0, len(h))
	for k, v := range h {
		out = append(out, nameValue{Name: k, Value: v})
	}
	slices.SortFunc(out, func(a, b nameValue) int { return strings.Compare(a.Name, b.Name) })
	return out
}
