package corpus

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// oauthDir holds the OAuth corpus: captures of the forward proxy in the
// capture format, each with its expectation and goldens (oauth_test.go).
const oauthDir = "../../testdata/oauth"

// authFlow describes an OAuth-protected session through the forward
// proxy; the zero value's defaults (clean) are a flow that breaks no
// rule. Each field changes one thing a corpus capture is about.
type authFlow struct {
	prmResource     string   // the metadata's resource; "" keeps the MCP URL
	noResourceMeta  bool     // the 401 names no resource_metadata and the well-known fetches 404
	issuer          string   // the AS metadata's issuer; "" keeps the listed one
	insecureToken   bool     // the token endpoint is plain http off loopback
	pkce            []string // code_challenge_methods_supported; nil means [S256]
	pkceMethod      string   // the authorization request's method; "" means S256
	noResourceParam bool     // the token request has no resource
	queryToken      bool     // the bearer request carries its token in the query
	rejected        bool     // the first bearer request is answered 401 (audience)
	rootMetadata    bool     // the path-inserted AS metadata 404s; it is served at the root
	aroundProxy     bool     // through the reverse proxy: the 401 names the target's own metadata URL, and the client, which fetched it around the proxy, stops
	modern          bool     // the MCP requests are 2026-07-28 server/discover calls, not 2025-11-25 initialize
	card            string   // a server card the client fetches first (GET /mcp/server-card); "" for none
	dpop            string   // "" for none; "clean" for a DPoP-bound flow breaking no rule; else what its bearer request's proof gets wrong (dpopCases)
}

// dpopCases maps each DPoP fault of a corpus capture to how the bearer
// request's proof (claims as the tap keeps them) differs from a clean one.
func dpopCases() map[string]func(p *dpopClaims) {
	return map[string]func(p *dpopClaims){
		"clean":     func(*dpopClaims) {},
		"malformed": func(p *dpopClaims) { p.typ, p.alg = "JWT", "HS256" },
		"htm":       func(p *dpopClaims) { p.htm = "GET" },
		"htu":       func(p *dpopClaims) { p.htu = "https://rs.example.com/other" },
		"ath":       func(p *dpopClaims) { p.ath = mcp.TokenHash("another-token") },
		"iat":       func(p *dpopClaims) { p.iat -= 3600 },
		"jti":       func(p *dpopClaims) { p.jti = "jti-token-1" }, // the token request's
	}
}

// dpopClaims is a DPoP proof's header and claims.
type dpopClaims struct {
	typ, alg, jti, htm, htu, ath string
	iat                          int64
}

// kept is the proof as the tap keeps it: base64url header and claims, no
// signature (mcp.StripDPoP).
func (p dpopClaims) kept() string {
	enc := func(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) }
	head := `{"typ":"` + p.typ + `","alg":"` + p.alg + `","jwk":{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}}`
	claims := `{"jti":"` + p.jti + `","htm":"` + p.htm + `","htu":"` + p.htu + `","iat":` + strconv.FormatInt(p.iat, 10)
	if p.ath != "" {
		claims += `,"ath":"` + p.ath + `"`
	}
	return enc(head) + "." + enc(claims+"}") + "."
}

// dpopToken is the access token of a DPoP flow (the capture keeps only its hash).
const dpopToken = "at-dpop-1"

// addDPoP makes a built flow DPoP-bound: the first 401 challenges with
// DPoP and a nonce, the token request carries a proof and is answered
// token_type DPoP, and the bearer request presents the token with the
// DPoP scheme and a proof changed by the flow's case.
func (a authFlow) addDPoP(recs []capture.Record) {
	if a.dpop == "" {
		return
	}
	base := func(jti, htu string, t time.Time) dpopClaims {
		return dpopClaims{typ: "dpop+jwt", alg: "ES256", jti: jti, htm: "POST", htu: htu, iat: t.Unix()}
	}
	frames := 0
	for i := range recs {
		r := &recs[i]
		switch {
		case r.Type == capture.TypeFrame && r.HTTP != nil && r.Dir == capture.S2C && r.HTTP.Status == 401:
			r.HTTP.Headers["WWW-Authenticate"] = `DPoP algs="ES256", resource_metadata="https://rs.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`
			r.HTTP.Headers["DPoP-Nonce"] = "nonce-rs-1"
		case r.Type == capture.TypeExchange && strings.Contains(r.Exchange.ReqBody, "grant_type="):
			r.Exchange.ReqHeaders["DPoP"] = base("jti-token-1", r.Exchange.URL, r.Time).kept()
			r.Exchange.RespBody = strings.Replace(r.Exchange.RespBody, `"token_type":"Bearer"`, `"token_type":"DPoP"`, 1)
			r.Exchange.RespSize = int64(len(r.Exchange.RespBody))
		case r.Type == capture.TypeFrame && r.HTTP != nil && r.Dir == capture.C2S && r.HTTP.Headers["Authorization"] != "":
			frames++
			p := base("jti-mcp-"+strconv.Itoa(frames), mcpURL, r.Time)
			p.ath = mcp.TokenHash(dpopToken)
			dpopCases()[a.dpop](&p)
			r.HTTP.Headers["Authorization"] = "DPoP [present] sha256=" + mcp.TokenHash(dpopToken)
			r.HTTP.Headers["DPoP"] = p.kept()
		}
	}
}

// discoverReq is a 2026-07-28 server/discover request with the given id.
func discoverReq(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"corpus-client","version":"1.0.0"}}}}`
}

const (
	mcpURL   = "https://rs.example.com/mcp"
	asIssuer = "https://as.example.com/tenant1"
	redirect = "http://127.0.0.1:33418/callback"
)

// records builds the capture of the flow.
func (a authFlow) records(name string) []capture.Record {
	b := &capBuilder{t: corpusStart, modern: a.modern}
	target := "forward"
	if a.aroundProxy {
		target = mcpURL
	}
	b.add(capture.Record{Type: capture.TypeSession, Format: capture.FormatVersion, SessionID: name, Transport: "http",
		Label: name, Target: target, ToolVersion: "corpus"})
	if a.card != "" {
		b.exchange("GET", mcpURL+"/server-card", "", 200, a.card, 2)
	}
	rm := ` resource_metadata="https://rs.example.com/.well-known/oauth-protected-resource/mcp",`
	if a.noResourceMeta {
		rm = ` realm="mcp",`
	}
	first := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"corpus-client","version":"1.0.0"}}}`
	if a.modern {
		first = discoverReq("0")
	}
	b.mcp("e1", "", mcpURL, first,
		401, "", `Bearer`+rm+` scope="mcp:tools"`, 4)
	if a.aroundProxy {
		b.add(capture.Record{Type: capture.TypeEnd})
		return b.recs
	}
	a.discovery(b)
	a.client(b)
	b.add(capture.Record{Type: capture.TypeEnd})
	a.addDPoP(b.recs)
	return b.recs
}

func (a authFlow) discovery(b *capBuilder) {
	resource := mcpURL
	if a.prmResource != "" {
		resource = a.prmResource
	}
	if a.noResourceMeta {
		b.exchange("GET", "https://rs.example.com/.well-known/oauth-protected-resource/mcp", "", 404, `{"error":"not_found"}`, 2)
		b.exchange("GET", "https://rs.example.com/.well-known/oauth-protected-resource", "", 404, `{"error":"not_found"}`, 2)
		return
	}
	b.exchange("GET", "https://rs.example.com/.well-known/oauth-protected-resource/mcp", "", 200,
		`{"resource":"`+resource+`","authorization_servers":["`+asIssuer+`"],"scopes_supported":["mcp:tools"],"bearer_methods_supported":["header"]}`, 3)
	issuer := asIssuer
	if a.issuer != "" {
		issuer = a.issuer
	}
	token := "https://as.example.com/tenant1/token"
	if a.insecureToken {
		token = "http://as.example.com/tenant1/token"
	}
	pkce := `["S256"]`
	if a.pkce != nil {
		pkce = `["` + a.pkce[0] + `"]`
	}
	meta := `{"issuer":"` + issuer + `","authorization_endpoint":"https://as.example.com/tenant1/authorize","token_endpoint":"` + token +
		`","registration_endpoint":"https://as.example.com/tenant1/register","response_types_supported":["code"],"grant_types_supported":["authorization_code","refresh_token"],"code_challenge_methods_supported":` +
		pkce + `,"authorization_response_iss_parameter_supported":true}`
	if a.rootMetadata {
		b.exchange("GET", "https://as.example.com/.well-known/oauth-authorization-server/tenant1", "", 404, `{"error":"not_found"}`, 2)
		b.exchange("GET", "https://as.example.com/.well-known/oauth-authorization-server", "", 200, meta, 3)
		return
	}
	b.exchange("GET", "https://as.example.com/.well-known/oauth-authorization-server/tenant1", "", 200, meta, 3)
}

func (a authFlow) client(b *capBuilder) {
	if a.noResourceMeta {
		return // the client cannot go on
	}
	token := "https://as.example.com/tenant1/token"
	if a.insecureToken {
		token = "http://as.example.com/tenant1/token"
	}
	b.exchange("POST", "https://as.example.com/tenant1/register",
		`{"client_name":"corpus-client","redirect_uris":["`+redirect+`"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`,
		201, `{"client_id":"c-8f3a","client_id_issued_at":1785229200,"client_name":"corpus-client","redirect_uris":["`+redirect+`"],"grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none"}`, 6)
	q := url.Values{"response_type": {"code"}, "client_id": {"c-8f3a"}, "redirect_uri": {redirect}, "state": {"st-41"},
		"code_challenge": {"[REDACTED]"}, "code_challenge_method": {"S256"}, "scope": {"mcp:tools"}, "resource": {mcpURL}}
	if a.pkceMethod != "" {
		q.Set("code_challenge_method", a.pkceMethod)
	}
	b.exchange("GET", "https://as.example.com/tenant1/authorize?"+q.Encode(), "", 302, "", 40)
	b.exchange("GET", redirect+"?code=%5BREDACTED%5D&state=st-41&iss="+url.QueryEscape(asIssuer), "", 200, "Authorized. You may close this window.", 1)
	f := url.Values{"grant_type": {"authorization_code"}, "code": {"[REDACTED]"}, "code_verifier": {"[REDACTED]"},
		"client_id": {"c-8f3a"}, "redirect_uri": {redirect}, "resource": {mcpURL}}
	if a.noResourceParam {
		f.Del("resource")
	}
	b.exchange("POST", token, f.Encode(), 200,
		`{"access_token":"[REDACTED]","token_type":"Bearer","expires_in":3600,"scope":"mcp:tools","refresh_token":"[REDACTED]"}`, 9)
	u, auth := mcpURL, "Bearer [present]"
	if a.queryToken {
		u, auth = mcpURL+"?access_token=%5BREDACTED%5D", ""
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"corpus-client","version":"1.0.0"}}}`
	ok := `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"corpus-server","version":"0.5.0"}}}`
	if a.modern {
		init = discoverReq("1")
		ok = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},` +
			`"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"corpus-server","version":"0.5.0"}}}}`
	}
	if a.rejected {
		b.mcp("e2", auth, u, init, 401, "", `Bearer error="invalid_token", error_description="audience mismatch",`+
			` resource_metadata="https://rs.example.com/.well-known/oauth-protected-resource/mcp"`, 3)
		return
	}
	b.mcp("e2", auth, u, init, 200, ok, "", 5)
}

// capBuilder appends records with seqs from 1 and times from corpusStart.
type capBuilder struct {
	recs []capture.Record
	seq  uint64
	t    time.Time
	n    int
	// modern sends 2026-07-28 headers (MCP-Protocol-Version, Mcp-Method)
	// on the MCP POSTs.
	modern bool
}

func (b *capBuilder) add(r capture.Record) {
	if r.Type != capture.TypeSession {
		b.seq++
		r.Seq = b.seq
	}
	r.Time = b.t
	b.recs = append(b.recs, r)
}

// exchange adds an exchange record that took ms milliseconds.
func (b *capBuilder) exchange(method, u, reqBody string, status int, respBody string, ms int) {
	b.n++
	x := &capture.Exchange{ID: "x" + itoa(b.n), Method: method, URL: u, Status: status, DurationUS: int64(ms) * 1000,
		ReqBody: reqBody, RespBody: respBody, ReqSize: int64(len(reqBody)), RespSize: int64(len(respBody))}
	x.ReqHeaders = map[string]string{"Accept": "application/json"}
	if reqBody != "" {
		ct := "application/x-www-form-urlencoded"
		if reqBody[0] == '{' {
			ct = "application/json"
		}
		x.ReqHeaders["Content-Type"] = ct
	}
	if respBody != "" {
		ct := "application/json"
		if respBody[0] != '{' {
			ct = "text/plain; charset=utf-8"
		}
		x.RespHeaders = map[string]string{"Content-Type": ct}
	}
	if status == 302 {
		x.RespHeaders = map[string]string{"Location": redirect + "?code=%5BREDACTED%5D&state=st-41"}
	}
	b.add(capture.Record{Type: capture.TypeExchange, Exchange: x})
	b.t = b.t.Add(time.Duration(ms+1) * time.Millisecond)
}

// mcp adds a POST of an MCP request and its answer, ms milliseconds apart.
func (b *capBuilder) mcp(ex, auth, u, req string, status int, resp, wwwAuth string, ms int) {
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
	if b.modern {
		h["MCP-Protocol-Version"], h["Mcp-Method"] = "2026-07-28", "server/discover"
	}
	if auth != "" {
		h["Authorization"] = auth
	}
	b.add(capture.Record{Type: capture.TypeFrame, Dir: capture.C2S, Size: len(req), Msg: jsontext.Value(req),
		HTTP: &capture.HTTP{Exchange: ex, Method: "POST", URL: u, Path: "/mcp", Headers: h}})
	b.t = b.t.Add(time.Duration(ms) * time.Millisecond)
	rh := map[string]string{"Content-Type": "application/json"}
	if wwwAuth != "" {
		rh["WWW-Authenticate"] = wwwAuth
	}
	r := capture.Record{Type: capture.TypeFrame, Dir: capture.S2C, Size: len(resp),
		HTTP: &capture.HTTP{Exchange: ex, Method: "POST", URL: u, Path: "/mcp", Status: status, Headers: rh}}
	switch v := jsontext.Value(resp); {
	case resp == "":
	case v.IsValid():
		r.Msg = v
	default:
		r.Text = resp
	}
	b.add(r)
	b.t = b.t.Add(time.Millisecond)
}

func itoa(n int) string { return strconv.Itoa(n) }

// oauthFixtures are the OAuth corpus captures: the clean flow and one per
// rule it must raise.
func oauthFixtures() map[string]authFlow {
	return map[string]authFlow{
		"oauth-clean":                      {},
		"oauth-resource-mismatch":          {prmResource: "http://127.0.0.1:18801/mcp"},
		"oauth-metadata-missing":           {noResourceMeta: true},
		"oauth-issuer-mismatch":            {issuer: "https://login.example.com/tenant1"},
		"oauth-endpoint-insecure":          {insecureToken: true},
		"oauth-pkce-not-s256":              {pkce: []string{"plain"}, pkceMethod: "plain"},
		"oauth-resource-parameter-missing": {noResourceParam: true},
		"oauth-token-in-query":             {queryToken: true},
		"oauth-token-rejected":             {rejected: true},
		"oauth-metadata-wrong-path":        {rootMetadata: true},
		"oauth-metadata-around-proxy":      {aroundProxy: true},
		"deprecated-dynamic-registration":  {modern: true},
		"oauth-dpop-clean":                 {dpop: "clean"},
		// Not an oauth rule: the server card rule needs an HTTP capture, which these are.
		"server-card-mismatch": {card: `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",` +
			`"name":"com.example/corpus-server","version":"0.4.0","description":"corpus",` +
			`"remotes":[{"type":"streamable-http","url":"https://rs.example.com/mcp","supportedProtocolVersions":["2026-07-28"]}]}`},
		"oauth-card-consistent": {card: `{"name":"com.example/corpus-server","version":"0.5.0","description":"corpus",` +
			`"remotes":[{"type":"streamable-http","url":"https://rs.example.com/mcp","supportedProtocolVersions":["2025-06-18","2025-11-25"]}]}`},
		"dpop-proof-malformed": {dpop: "malformed"},
		"dpop-htm-mismatch":    {dpop: "htm"},
		"dpop-htu-mismatch":    {dpop: "htu"},
		"dpop-ath-mismatch":    {dpop: "ath"},
		"dpop-iat-skew":        {dpop: "iat"},
		"dpop-jti-replayed":    {dpop: "jti"},
	}
}
