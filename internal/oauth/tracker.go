package oauth

import (
	"net/url"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Tracker keeps, frame by frame, what the flow needs from the MCP
// exchanges and a snapshot does not hold: for each HTTP exchange that
// matters (an answer 401 or 403, the first request of a URL or with a new
// Authorization scheme, the first after a record that was not a frame,
// which may have been a token request) its URL, Authorization scheme,
// status and WWW-Authenticate. It keeps a few dozen bytes per such
// exchange, not per frame. The zero value is ready to use.
type Tracker struct {
	pending map[string]*mcpRequest // by exchange id, until answered
	kept    []mcpRequest
	last    map[string]lastSeen // by URL
	seq     uint64              // the seq of the last frame seen
	gap     bool                // a record that was not a frame came since the last kept request
	// queryTokens lists the first MCP request of each URL (query aside)
	// that carried access_token in its query; queried holds those URLs.
	queryTokens []queryToken
	queried     map[string]bool
	// proofs lists every DPoP proof of an MCP request (dpop.go).
	proofs []proofUse
}

// mcpRequest is one MCP request on HTTP and its answer.
type mcpRequest struct {
	Seq    uint64
	Line   int
	Time   time.Time
	Call   int
	Method string // the JSON-RPC method ("" for a batch or a GET)
	// Verb is the HTTP method.
	Verb string
	// URL is the absolute URL the client used (forward proxy), or Path
	// (reverse proxy), resolved against the session's target by Read.
	URL, Path string
	Auth      string // the Authorization scheme, "" for none
	Status    int    // zero while unanswered
	End       time.Time
	WWWAuth   string
	// Nonce is the answer's DPoP-Nonce, "" for none.
	Nonce string
}

type lastSeen struct {
	auth   string
	failed bool
}

type queryToken struct {
	seq  uint64
	line int
	url  string
}

// Check implements store.Check: it tracks the frame and raises nothing.
func (t *Tracker) Check(f *store.Frame, _ func(finding.Finding)) { t.Track(f) }

// Track takes one correlated frame (store.Options.OnFrame or Check).
func (t *Tracker) Track(f *store.Frame) {
	r := f.Record
	if r == nil {
		return
	}
	if t.seq != 0 && r.Seq > t.seq+1 {
		t.gap = true
	}
	t.seq = r.Seq
	env := r.HTTP
	if env == nil || env.Exchange == "" {
		return
	}
	if r.Dir == capture.C2S {
		t.request(f, env)
		return
	}
	if q, ok := t.pending[env.Exchange]; ok {
		delete(t.pending, env.Exchange)
		q.Status, q.End, q.WWWAuth = env.Status, r.Time, env.Headers[mcp.HeaderWWWAuthenticate]
		q.Nonce = env.Headers[mcp.HeaderDPoPNonce]
		t.keep(q)
	}
}

func (t *Tracker) request(f *store.Frame, env *capture.HTTP) {
	r := f.Record
	if _, dup := t.pending[env.Exchange]; dup {
		return // a batch's later elements, or a retried exchange id
	}
	q := &mcpRequest{Seq: r.Seq, Line: r.Line, Time: r.Time, Call: f.Call, Method: f.Method,
		Verb: env.Method, URL: env.URL, Path: env.Path, Auth: authScheme(env.Headers[mcp.HeaderAuthorization])}
	t.trackProof(q, env.Headers)
	u := q.URL
	if u == "" {
		u = q.Path
	}
	if hasQueryToken(u) && !t.queried[stripQuery(u)] {
		if t.queried == nil {
			t.queried = map[string]bool{}
		}
		t.queried[stripQuery(u)] = true
		t.queryTokens = append(t.queryTokens, queryToken{seq: r.Seq, line: r.Line, url: u})
	}
	if t.pending == nil {
		t.pending = map[string]*mcpRequest{}
	}
	t.pending[env.Exchange] = q
}

// keep keeps an answered request when it may be a step of the flow.
func (t *Tracker) keep(q *mcpRequest) {
	key := q.URL + "|" + q.Path
	failed := q.Status == 401 || q.Status == 403
	prev, seen := t.last[key]
	if seen && !t.gap && !failed && !prev.failed && prev.auth == q.Auth {
		return
	}
	if t.last == nil {
		t.last = map[string]lastSeen{}
	}
	t.last[key] = lastSeen{auth: q.Auth, failed: failed}
	t.gap = false
	t.kept = append(t.kept, *q)
}

// authScheme returns the scheme of an Authorization value as the capture
// keeps it ("Bearer [present]"), or "" for none.
func authScheme(v string) string {
	scheme, _, _ := strings.Cut(strings.TrimSpace(v), " ")
	if !mcp.IsToken(scheme) {
		return ""
	}
	return scheme
}

// hasQueryToken reports whether the URL's query has an access_token
// parameter (its value is redacted in the capture; the name is enough).
func hasQueryToken(raw string) bool {
	_, q, ok := strings.Cut(raw, "?")
	if !ok {
		return false
	}
	q, _, _ = strings.Cut(q, "#")
	vals, _ := url.ParseQuery(q)
	_, has := vals["access_token"]
	return has
}
