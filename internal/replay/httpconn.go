package replay

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// maxJSONAnswer bounds a POST's application/json answer.
const maxJSONAnswer = 64 << 20

// httpConn is the client end of a Streamable HTTP endpoint: every message
// is its own POST. The answer to each POST (one JSON message, or the
// events of an SSE stream, on which a legacy server also sends its own
// requests) is read by a goroutine of its own into one channel, so the
// driver answers a server request while the call's stream stays open.
type httpConn struct {
	url    string
	client *http.Client
	// ctx is cancelled by close: it ends every POST still reading.
	ctx    context.Context
	cancel context.CancelFunc
	items  chan item
	wg     sync.WaitGroup
	// down, when not nil, says why the target could not be reached after
	// the tap answered 502 ("" when it does not know).
	down func() string
	// extra holds the headers every request carries besides the
	// transport's own (Options.RequestHeader); nil adds none.
	extra http.Header

	mu      sync.Mutex
	session string // Mcp-Session-Id of the initialize answer
	version string // the protocol version the initialize result named
	// tools holds each tool's x-mcp-header bindings: the capture's
	// catalog's at first, then what the server's tools/list answers say.
	tools map[string][]paramBinding
	// listed holds the tools the server itself listed in this run.
	listed map[string]bool
}

// item is a message from the server, or why none will come.
type item struct {
	f   wire.Frame
	err error
}

// newHTTPConn returns the conn for the endpoint url; a cancelled ctx cuts
// its POSTs and ends the wait for the server.
func newHTTPConn(ctx context.Context, url string, client *http.Client, down func() string) *httpConn {
	ctx, cancel := context.WithCancel(ctx)
	return &httpConn{url: url, client: client, ctx: ctx, cancel: cancel, items: make(chan item), down: down}
}

// send POSTs msg. A request's answer is read in the background (next
// returns it); a notification or response waits at most timeout for the
// server to accept it.
func (c *httpConn) send(msg []byte, timeout time.Duration) error {
	return c.sendParams(msg, nil, timeout)
}

// sendParams is send with the Mcp-Param-* headers the recording gave the
// request (Step.ParamHeaders; nil when it kept none), which paramHeaders
// uses until the server lists the tool.
func (c *httpConn) sendParams(msg []byte, params map[string]string, timeout time.Duration) error {
	f := wire.Decode(msg)
	if f.Kind == wire.KindRequest && f.Method == mcp.MethodInitialize {
		// A capture of several client sessions, one after another:
		// each recorded initialize opens a session of its own, as its
		// client did, and the one before it ends as its client's did.
		c.endSession(timeout)
	}
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, c.url, bytes.NewReader(msg))
	if err != nil {
		return fmt.Errorf("posting to the server: %w", err)
	}
	c.headers(req.Header, &f)
	c.paramHeaders(req.Header, &f, params)
	what := f.Method
	if what == "" {
		what = "a response"
	}
	took := make(chan error, 1)
	c.wg.Add(1)
	go c.post(req, &f, what, took)
	if f.Kind == wire.KindRequest {
		return nil
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-took:
		return err
	case <-t.C:
		return fmt.Errorf("the server took no POST of %s in %v: %w", what, timeout, ErrTimeout)
	}
}

// headers sets the request headers: Options.RequestHeader, then the
// transport's own, which win: the media types, the session and the
// protocol version; for a 2026-07-28 request (its _meta names the
// version) the Mcp-Method and Mcp-Name mirrors too (paramHeaders adds the
// Mcp-Param-* ones).
func (c *httpConn) headers(h http.Header, f *wire.Frame) {
	c.addExtra(h)
	h.Set(mcp.HeaderContentType, mcp.MediaTypeJSON)
	h.Set(mcp.HeaderAccept, mcp.MediaTypeJSON+", "+mcp.MediaTypeEventStream)
	c.mu.Lock()
	session, version := c.session, c.version
	c.mu.Unlock()
	if f.Kind == wire.KindRequest && f.Method == mcp.MethodInitialize {
		// A new session: endSession left none to carry on.
		session, version = "", ""
	}
	if session != "" {
		h.Set(mcp.HeaderSessionID, session)
	}
	if f.Kind == wire.KindRequest {
		if v, ok := mcp.MetaVersion(f.Params); ok {
			version = v
			h.Set(mcp.HeaderMethod, f.Method)
			if name := mcp.MirroredName(f.Method, f.Params); name != "" {
				h.Set(mcp.HeaderName, headerValue(name))
			}
		}
	}
	if version != "" {
		h.Set(mcp.HeaderProtocolVersion, version)
	}
}

// addExtra adds the headers of Options.RequestHeader to h.
func (c *httpConn) addExtra(h http.Header) {
	for k, vs := range c.extra {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
}

// paramHeaders sets the Mcp-Param-* headers of a tools/call, as a client
// of the server under test would: for a tool the server listed in this
// run, those its annotations ask for now; otherwise the recorded ones
// when the capture kept them (params not nil), else those the capture's
// catalog asks for. A request before 2026-07-28 carries none.
func (c *httpConn) paramHeaders(h http.Header, f *wire.Frame, params map[string]string) {
	if f.Kind != wire.KindRequest || f.Method != mcp.MethodToolsCall {
		return
	}
	name := mcp.ToolName(f.Params)
	c.mu.Lock()
	bs, listed := c.tools[name], c.listed[name]
	c.mu.Unlock()
	if params != nil && !listed {
		for k, v := range params {
			h.Set(k, v)
		}
		return
	}
	if h.Get(mcp.HeaderMethod) == "" {
		return // not a 2026-07-28 request: no mirrors
	}
	setParamHeaders(h, bs, mcp.ToolArguments(f.Params))
}

// learnTools keeps the x-mcp-header bindings of a tools/list result.
func (c *httpConn) learnTools(result []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tools == nil {
		c.tools = make(map[string][]paramBinding)
	}
	if c.listed == nil {
		c.listed = make(map[string]bool)
	}
	toolBindings(c.tools, c.listed, result)
}

// headerValue encodes a value that is not safe as a header value (spec
// 5.2: non-ASCII, control characters, surrounding whitespace, or what
// looks like the sentinel) as =?base64?...?=.
func headerValue(s string) string {
	safe := len(s) > 0 && s[0] != ' ' && s[0] != '\t' && s[len(s)-1] != ' ' && s[len(s)-1] != '\t' &&
		!strings.HasPrefix(s, "=?base64?")
	for i := 0; i < len(s) && safe; i++ {
		safe = s[i] >= 0x20 && s[i] < 0x7f
	}
	if safe {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// post sends req and reads its answer: took gets whether the server
// accepted it; a request's messages, or why none came, go to items.
func (c *httpConn) post(req *http.Request, f *wire.Frame, what string, took chan<- error) {
	defer c.wg.Done()
	isReq := f.Kind == wire.KindRequest
	resp, err := c.client.Do(req)
	if err != nil {
		err = fmt.Errorf("posting %s to the server: %w", what, err)
		took <- err
		if isReq {
			c.push(item{err: err})
		}
		return
	}
	defer resp.Body.Close()
	if f.Method == "initialize" {
		if sid := resp.Header.Get(mcp.HeaderSessionID); sid != "" {
			c.mu.Lock()
			c.session = sid
			c.mu.Unlock()
		}
	}
	answered, readErr := c.readAnswer(resp, f)
	switch {
	case resp.StatusCode >= 400 && !answered && f.Method == mcp.MethodDiscover && !c.gone(resp):
		// A legacy server refuses the era probe with a bare status
		// (spec 5.2: "an empty or unrecognised body means legacy"); the
		// recorded client fell back to initialize, the next step. The
		// driver alone sees this error: the tap recorded the status.
		took <- nil
		c.push(item{f: wire.Decode(errorResponse(f.ID, codeRefused, "HTTP "+resp.Status))})
		return
	case resp.StatusCode >= 400 && !answered:
		err = c.statusError(resp, what)
	case isReq && !answered && readErr != nil && c.ctx.Err() == nil:
		err = fmt.Errorf("reading the answer to %s: %w", what, readErr)
	case isReq && !answered && c.ctx.Err() == nil:
		err = fmt.Errorf("the server answered the POST of %s (HTTP %d) without its response: %w", what, resp.StatusCode, ErrServerGone)
	}
	took <- err
	if isReq && err != nil {
		c.push(item{err: err})
	}
}

// codeRefused is the code of the error the driver is handed for a
// server/discover POST refused with a bare HTTP status.
const codeRefused = -32600

// gone reports whether resp is the tap's 502 for a target it could not
// reach.
func (c *httpConn) gone(resp *http.Response) bool {
	return resp.StatusCode == http.StatusBadGateway && c.down != nil && c.down() != ""
}

// statusError says what an HTTP error status without an answer means.
func (c *httpConn) statusError(resp *http.Response, what string) error {
	if resp.StatusCode == http.StatusBadGateway && c.down != nil {
		if cause := c.down(); cause != "" {
			return fmt.Errorf("cannot reach the server: %s: %w", cause, ErrServerGone)
		}
	}
	return fmt.Errorf("the server answered the POST of %s with HTTP %s", what, resp.Status)
}

// readAnswer hands on the messages of resp's body, a JSON message or an
// event stream, and reports whether the response to f was among them.
func (c *httpConn) readAnswer(resp *http.Response, f *wire.Frame) (bool, error) {
	answered := false
	each := func(data []byte) {
		g := wire.Decode(data)
		if g.Kind == wire.KindError && g.ID.IsNull() && resp.StatusCode >= 400 && f.Kind == wire.KindRequest {
			// The server refused this POST (a 2025 server's 400 to a
			// server/discover probe): one request per POST, so the
			// refusal is its answer, as the store pairs it.
			g = wire.Decode(response(data, f.ID))
		}
		if (g.Kind == wire.KindResponse || g.Kind == wire.KindError) && f.Kind == wire.KindRequest && g.ID == f.ID {
			answered = true
			if f.Method == "tools/list" && g.Kind == wire.KindResponse {
				c.learnTools(g.Result)
			}
			if f.Method == "initialize" {
				if v, ok := mcp.InitializeVersion(g.Result); ok {
					c.mu.Lock()
					c.version = v
					c.mu.Unlock()
				}
			}
		}
		c.push(item{f: g})
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get(mcp.HeaderContentType))
	switch mt {
	case mcp.MediaTypeEventStream:
		return answered, httpproxy.ReadEvents(resp.Body, each)
	case mcp.MediaTypeJSON:
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONAnswer))
		if err != nil {
			return false, err
		}
		if len(bytes.TrimSpace(body)) > 0 {
			each(body)
		}
		return answered, nil
	}
	_, err := io.Copy(io.Discard, resp.Body)
	return false, err
}

// push hands an item to next, or drops it once the conn is closed.
func (c *httpConn) push(it item) {
	select {
	case c.items <- it:
	case <-c.ctx.Done():
	}
}

// next returns the next message from the server, waiting until deadline.
func (c *httpConn) next(deadline time.Time, timeout time.Duration) (wire.Frame, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case it := <-c.items:
		return it.f, it.err
	case <-c.ctx.Done():
		return wire.Frame{}, fmt.Errorf("replay stopped: %w", c.ctx.Err())
	case <-t.C:
		return wire.Frame{}, fmt.Errorf("no answer from the server in %v: %w", timeout, ErrTimeout)
	}
}

// close ends the session (a DELETE when the server gave one; its answer
// does not matter), cuts the POSTs still reading and waits for their
// goroutines.
func (c *httpConn) close(timeout time.Duration) {
	c.endSession(timeout)
	c.cancel()
	c.wg.Wait()
	c.client.CloseIdleConnections()
}

// endSession DELETEs the session the server gave, if any (its answer does
// not matter), and forgets it and its protocol version.
func (c *httpConn) endSession(timeout time.Duration) {
	c.mu.Lock()
	session, version := c.session, c.version
	c.session, c.version = "", ""
	c.mu.Unlock()
	if session == "" {
		return
	}
	// The session ends even when the replay was stopped.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.ctx), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
	if err != nil {
		return
	}
	c.addExtra(req.Header)
	req.Header.Set(mcp.HeaderSessionID, session)
	if version != "" {
		req.Header.Set(mcp.HeaderProtocolVersion, version)
	}
	if resp, err := c.client.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
