package oauth

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/store"
)

// Read returns the authorization flows of a session: the snapshot's
// exchanges and the MCP requests t tracked (t may be nil: then only the
// exchanges count), grouped by resource and authorization server, each
// flow's steps in capture order.
func Read(s *store.Snapshot, t *Tracker) Auth {
	r := reader{target: s.Session.Target}
	var reqs []mcpRequest
	if t != nil {
		reqs = slices.Clone(t.kept)
		slices.SortFunc(reqs, func(a, b mcpRequest) int { return cmpSeq(a.Seq, b.Seq) })
		for _, q := range t.queryTokens {
			r.auth.QueryTokens = append(r.auth.QueryTokens, Anchor{Seq: q.seq, Line: q.line, URL: r.resolve(q.url, "")})
		}
	}
	xs := s.Exchanges
	for i, j := 0, 0; i < len(xs) || j < len(reqs); {
		if j == len(reqs) || i < len(xs) && xs[i].Seq < reqs[j].Seq {
			if !xs[i].Tunnel {
				r.exchange(&xs[i])
			}
			i++
			continue
		}
		r.request(&reqs[j])
		j++
	}
	for _, f := range r.flows {
		if len(f.Steps) > 0 && f.hasOAuthStep() {
			r.auth.Flows = append(r.auth.Flows, f.Flow)
		}
	}
	slices.SortStableFunc(r.auth.QueryTokens, func(a, b Anchor) int { return cmpSeq(a.Seq, b.Seq) })
	r.readProofs(s, t)
	return r.auth
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

type reader struct {
	target string
	flows  []*flowState
	auth   Auth
}

// flowState is a flow being read, with what ties exchanges to it.
type flowState struct {
	Flow
	resourceMeta map[string]bool   // resource metadata URLs named or fetched
	issuers      map[string]bool   // issuers, without a terminating "/"
	origins      map[string]bool   // origins of the resource and the servers
	endpoints    map[string]string // endpoint URL -> the step kind it serves
}

func newFlow(resource string) *flowState {
	f := &flowState{Flow: Flow{Resource: resource}, resourceMeta: map[string]bool{}, issuers: map[string]bool{},
		origins: map[string]bool{}, endpoints: map[string]string{}}
	if o := origin(resource); o != "" {
		f.origins[o] = true
	}
	return f
}

func (f *flowState) hasOAuthStep() bool {
	return slices.ContainsFunc(f.Steps, func(s Step) bool { return s.Kind != StepBearer })
}

func (f *flowState) add(st Step) { f.Steps = append(f.Steps, st) }

func (f *flowState) last() string {
	if len(f.Steps) == 0 {
		return ""
	}
	return f.Steps[len(f.Steps)-1].Kind
}

// resolve makes a reverse-proxy path absolute against the session target.
func (r *reader) resolve(u, path string) string {
	if u != "" {
		return u
	}
	base, err := url.Parse(r.target)
	if err != nil || base.Host == "" {
		return path
	}
	ref, err := url.Parse(path)
	if err != nil {
		return path
	}
	return base.ResolveReference(ref).String()
}

// byResource finds the flow of an MCP URL.
func (r *reader) byResource(u string) *flowState {
	for _, f := range slices.Backward(r.flows) {
		if f.Resource != "" && (sameID(f.Resource, stripQuery(u)) || resourceCovers(f.Resource, u)) {
			return f
		}
	}
	return nil
}

func (r *reader) open(resource string) *flowState {
	f := newFlow(resource)
	r.flows = append(r.flows, f)
	return f
}

// request places a tracked MCP request: a challenge, or the first bearer
// request after other steps.
func (r *reader) request(q *mcpRequest) {
	u := r.resolve(q.URL, q.Path)
	f := r.byResource(stripQuery(u))
	challenged := q.Status == 401 || q.Status == 403
	bearer := strings.EqualFold(q.Auth, "Bearer") || strings.EqualFold(q.Auth, "DPoP")
	if f == nil && !challenged {
		return // a request outside any flow: a static token, or none
	}
	if f == nil {
		f = r.open(stripQuery(u))
	}
	st := Step{Seq: q.Seq, Line: q.Line, Time: q.Time, Method: q.Verb, URL: u, Status: q.Status, OK: success(q.Status)}
	if !q.End.IsZero() {
		st.DurationMS = float64(q.End.Sub(q.Time).Microseconds()) / 1000
	}
	if challenged || q.WWWAuth != "" {
		st.Challenge = challengeInfo(q.WWWAuth, q.Method)
		st.Challenge.Nonce = q.Nonce
		st.Error = st.Challenge.Error
		if st.Challenge.ResourceMetadata != "" {
			f.resourceMeta[st.Challenge.ResourceMetadata] = true
		}
	}
	switch {
	case bearer && f.last() != StepBearer && f.last() != "":
		st.Kind, st.Bearer = StepBearer, &BearerRequest{MCPMethod: q.Method, Scheme: q.Auth, Call: q.Call}
	case challenged:
		st.Kind = StepChallenge
	default:
		return
	}
	f.add(st)
}

// exchange places an HTTP exchange that carried no MCP message.
func (r *reader) exchange(x *store.Exchange) {
	if hasQueryToken(x.URL) {
		r.auth.QueryTokens = append(r.auth.QueryTokens, Anchor{Seq: x.Seq, Line: x.Line, URL: x.URL})
	}
	if at := wellKnown(x.URL); at.kind != "" {
		r.metadata(x, at)
		return
	}
	f, kind := r.byEndpoint(x.URL)
	if kind == "" {
		kind = shape(x)
	}
	if kind == "" {
		if q, ok := challengeExchange(x); ok {
			r.request(&q) // an MCP endpoint's 401 recorded as an exchange
		}
		return
	}
	if f == nil {
		f = r.latest(x.URL)
	}
	switch kind {
	case StepRegistration:
		st := registrationStep(x)
		for _, u := range st.Registration.RedirectURIs {
			f.endpoints[stripQuery(u)] = StepCallback
		}
		f.add(st)
	case StepAuthorization:
		st := authorizationStep(x)
		if u := st.Authorization.RedirectURI; u != "" {
			f.endpoints[stripQuery(u)] = StepCallback
		}
		f.add(st)
	case StepCallback:
		f.add(callbackStep(x))
	case StepToken:
		f.add(tokenStep(x))
	}
}

// latest returns the flow an endpoint exchange with no known endpoint
// belongs to: the one whose servers share its origin, else the last one,
// else a new one.
func (r *reader) latest(u string) *flowState {
	o := origin(u)
	for _, f := range slices.Backward(r.flows) {
		if f.origins[o] {
			return f
		}
	}
	if len(r.flows) > 0 {
		return r.flows[len(r.flows)-1]
	}
	return r.open("")
}

// byEndpoint finds the flow whose metadata or registration named the URL.
func (r *reader) byEndpoint(u string) (*flowState, string) {
	key := stripQuery(u)
	for _, f := range slices.Backward(r.flows) {
		if k, ok := f.endpoints[key]; ok {
			return f, k
		}
	}
	return nil, ""
}

// shape classifies an exchange no metadata named, by its form: a token
// request is a form POST with grant_type; a registration a JSON POST with
// redirect_uris; an authorization request a GET with response_type; a
// callback a GET with code or error, and state.
func shape(x *store.Exchange) string {
	q := query(x.URL)
	switch {
	case x.Method == "POST" && form(x.ReqBody).Has("grant_type"):
		return StepToken
	case x.Method == "POST" && jsonObject(x.ReqBody).has("redirect_uris"):
		return StepRegistration
	case x.Method == "GET" && q.Has("response_type") && q.Has("client_id"):
		return StepAuthorization
	case x.Method == "GET" && q.Has("state") && (q.Has("code") || q.Has("error")):
		return StepCallback
	}
	return ""
}

// challengeExchange reads an exchange answered 401 or 403 with a
// WWW-Authenticate, that no metadata names as an OAuth endpoint, as an MCP
// request (a tap may record the answer of an MCP POST that carried no
// JSON-RPC as an exchange).
func challengeExchange(x *store.Exchange) (mcpRequest, bool) {
	www := header(x.RespHeaders, "WWW-Authenticate")
	if www == "" || x.Status != 401 && x.Status != 403 {
		return mcpRequest{}, false
	}
	return mcpRequest{Seq: x.Seq, Line: x.Line, Time: x.Time, Call: -1, Method: jsonObject(x.ReqBody).str("method"), Verb: x.Method,
		URL: x.URL, Auth: authScheme(header(x.ReqHeaders, "Authorization")), Status: x.Status,
		End: x.Time.Add(time.Duration(x.DurationUS) * time.Microsecond), WWWAuth: www}, true
}

// header returns a header of a kept set, whatever the case of its name.
func header(h map[string]string, name string) string {
	if v, ok := h[name]; ok {
		return v
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
