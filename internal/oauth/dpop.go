package oauth

import (
	"net/url"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Proof is one DPoP proof a request carried (RFC 9449 §4; SEP-1932), as
// the capture keeps it: decoded claims, never its signature, never the
// token it is bound to.
type Proof struct {
	Seq  uint64    `json:"seq"`
	Line int       `json:"line,omitzero"`
	Time time.Time `json:"time"`
	// Method and URL are the HTTP request's; MCPMethod is the JSON-RPC
	// method of an MCP request ("" for an exchange, a token request say).
	Method    string `json:"method"`
	URL       string `json:"url"`
	MCPMethod string `json:"mcp_method,omitempty"`
	// PathOnly is set when the capture does not know the URL the client
	// used, only its path: behind the reverse proxy the client addressed
	// the proxy, and the URL above is the target's.
	PathOnly bool `json:"path_only,omitzero"`
	// Typ, Alg, JTI, HTM, HTU, IAT and Nonce are the proof's; IAT is zero
	// when it had none. JWK reports whether the header carries a key,
	// JWKPrivate whether that key has private members.
	Typ        string `json:"typ,omitempty"`
	Alg        string `json:"alg,omitempty"`
	JWK        bool   `json:"jwk"`
	JWKPrivate bool   `json:"jwk_private,omitzero"`
	JTI        string `json:"jti,omitempty"`
	HTM        string `json:"htm,omitempty"`
	HTU        string `json:"htu,omitempty"`
	IAT        int64  `json:"iat,omitzero"`
	Nonce      string `json:"nonce,omitempty"`
	// ATH compares the proof's ath with the DPoP token the request
	// presented: ATHMatch, ATHMismatch, ATHMissing (a DPoP token, no
	// ath), ATHUnbound (an ath, no DPoP token) or "" (neither).
	ATH string `json:"ath,omitempty"`
	// Problem says why the proof could not be read whole.
	Problem string `json:"problem,omitempty"`
}

// Proof.ATH values.
const (
	ATHMatch    = "match"
	ATHMismatch = "mismatch"
	ATHMissing  = "missing"
	ATHUnbound  = "no-dpop-token"
)

// proofUse is a DPoP proof on an MCP request, as the Tracker keeps it.
type proofUse struct {
	seq       uint64
	line      int
	time      time.Time
	verb, url string
	path      string
	method    string
	proof     string // as kept: without its signature
	auth      string // the kept Authorization value
}

// trackProof keeps the DPoP proof of a request frame, if it has one.
func (t *Tracker) trackProof(q *mcpRequest, headers map[string]string) {
	v, ok := headers[mcp.HeaderDPoP]
	if !ok || v == capture.RedactedValue {
		return // --redact-secrets dropped it: nothing to read or judge
	}
	t.proofs = append(t.proofs, proofUse{seq: q.Seq, line: q.Line, time: q.Time, verb: q.Verb, url: q.URL, path: q.Path,
		method: q.Method, proof: v, auth: headers[mcp.HeaderAuthorization]})
}

// readProofs lists the session's DPoP proofs in seq order: those of the
// MCP requests the tracker kept and those of the exchanges.
func (r *reader) readProofs(s *store.Snapshot, t *Tracker) {
	var ps []proofUse
	if t != nil {
		ps = t.proofs
	}
	reverse := isAbsolute(s.Session.Target)
	xs := s.Exchanges
	for i, j := 0, 0; i < len(xs) || j < len(ps); {
		if j == len(ps) || i < len(xs) && xs[i].Seq < ps[j].seq {
			x := &xs[i]
			i++
			if v := header(x.ReqHeaders, mcp.HeaderDPoP); v != "" && v != capture.RedactedValue && !x.Tunnel {
				r.auth.Proofs = append(r.auth.Proofs, newProof(v, header(x.ReqHeaders, mcp.HeaderAuthorization),
					Proof{Seq: x.Seq, Line: x.Line, Time: x.Time, Method: x.Method, URL: x.URL, PathOnly: reverse}))
			}
			continue
		}
		p := &ps[j]
		j++
		r.auth.Proofs = append(r.auth.Proofs, newProof(p.proof, p.auth,
			Proof{Seq: p.seq, Line: p.line, Time: p.time, Method: p.verb, URL: r.resolve(p.url, p.path), MCPMethod: p.method, PathOnly: p.url == ""}))
	}
}

// newProof decodes a kept proof into base, comparing its ath with the
// kept Authorization value's token hash.
func newProof(v, auth string, base Proof) Proof {
	d := mcp.ParseDPoP(v)
	p := base
	p.Typ, p.Alg, p.JWK, p.JWKPrivate = d.Typ, d.Alg, d.JWK, d.JWKPrivate
	p.JTI, p.HTM, p.HTU, p.Nonce, p.Problem = d.JTI, d.HTM, d.HTU, d.Nonce, d.Problem
	if d.HasIAT {
		p.IAT = d.IAT
	}
	hash := mcp.DPoPAuthTokenHash(auth)
	bound := strings.EqualFold(authScheme(auth), mcp.SchemeDPoP)
	switch {
	case bound && !d.HasATH:
		p.ATH = ATHMissing
	case bound && hash != "" && d.ATH == hash:
		p.ATH = ATHMatch
	case bound && hash != "":
		p.ATH = ATHMismatch
	case !bound && d.HasATH:
		p.ATH = ATHUnbound
	}
	return p
}

// isAbsolute reports whether a session target is an absolute http(s) URL
// (a reverse proxy's; the forward proxy's names no URL).
func isAbsolute(target string) bool {
	u, err := url.Parse(target)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// HTUMatches reports whether a proof's htu names the URL of the request
// that carried it (RFC 9449 §4.3 check 9: the URI without query and
// fragment, compared after syntax-based normalization: scheme and host
// case, the default port, an empty path). With PathOnly only the paths
// are compared.
func (p *Proof) HTUMatches() bool {
	want, err1 := url.Parse(p.URL)
	got, err2 := url.Parse(p.HTU)
	if err1 != nil || err2 != nil {
		return false
	}
	path := func(u *url.URL) string {
		if u.EscapedPath() == "" {
			return "/"
		}
		return u.EscapedPath()
	}
	if p.PathOnly {
		return path(want) == path(got)
	}
	host := func(u *url.URL) string {
		h, port := strings.ToLower(u.Hostname()), u.Port()
		if port == "" || (port == "443" && strings.EqualFold(u.Scheme, "https")) || (port == "80" && strings.EqualFold(u.Scheme, "http")) {
			return h
		}
		return h + ":" + port
	}
	return strings.EqualFold(want.Scheme, got.Scheme) && host(want) == host(got) && path(want) == path(got)
}
