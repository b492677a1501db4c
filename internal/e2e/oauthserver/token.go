package oauthserver

import (
	"net/http"
)

// serveToken answers the token endpoint: the authorization_code grant
// (PKCE and the RFC 8707 resource parameter enforced) and refresh_token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "body is not a form")
		return
	}
	f := r.PostForm
	tr := TokenRequest{GrantType: f.Get("grant_type"), CodeVerifier: f.Get("code_verifier"), Resource: f.Get("resource")}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	c, how := st.authenticate(r)
	tr.ClientAuth = how
	if c != nil {
		tr.ClientID = c.id
	}
	var g *grant
	switch {
	case c == nil:
		tr.Error = "invalid_client"
	case tr.GrantType == "authorization_code":
		g, tr.Error = s.redeemCode(c, f.Get("code"), f.Get("redirect_uri"), tr)
	case tr.GrantType == "refresh_token":
		g = st.refresh[f.Get("refresh_token")]
		if g == nil || g.clientID != c.id {
			g, tr.Error = nil, "invalid_grant"
		}
	default:
		tr.Error = "unsupported_grant_type"
	}
	st.seen.TokenRequests = append(st.seen.TokenRequests, tr)
	if tr.Error != "" {
		code := http.StatusBadRequest
		if tr.Error == "invalid_client" {
			code = http.StatusUnauthorized
		}
		writeOAuthError(w, code, tr.Error, "refused by the test authorization server")
		return
	}
	at, rt := st.next(AccessTokenPrefix), st.next(RefreshTokenPrefix)
	st.seen.Issued = append(st.seen.Issued, at, rt)
	st.tokens[at], st.refresh[rt] = g, g
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": at, "token_type": "Bearer", "expires_in": 3600, "refresh_token": rt, "scope": Scope,
	})
}

// redeemCode spends code for client c and returns the grant it carried,
// bound to its audience, or the OAuth error to answer. st.mu is held.
func (s *Server) redeemCode(c *client, code, redirect string, tr TokenRequest) (*grant, string) {
	st := s.st
	g := st.codes[code]
	delete(st.codes, code) // single use, even when the request fails
	switch {
	case g == nil || g.clientID != c.id || g.redirectURI != redirect:
		return nil, "invalid_grant"
	case !verifierMatches(g.method, g.challenge, tr.CodeVerifier):
		return nil, "invalid_grant"
	case tr.Resource == "" && !s.opts.AllowMissingResource:
		return nil, "invalid_target"
	case tr.Resource != "" && tr.Resource != s.URL():
		return nil, "invalid_target"
	}
	out := *g
	out.audience = s.URL()
	if s.opts.WrongAudience {
		out.audience = s.rsURL + "/another-audience"
	}
	return &out, ""
}

// authenticate finds the client of a token request and says how it
// authenticated; the client is nil when authentication failed. st.mu is
// held.
func (st *state) authenticate(r *http.Request) (*client, string) {
	if id, secret, ok := r.BasicAuth(); ok {
		c := st.clients[id]
		if c == nil || c.secret == "" || c.secret != secret {
			return nil, "client_secret_basic"
		}
		return c, "client_secret_basic"
	}
	c := st.clients[r.PostForm.Get("client_id")]
	if c == nil {
		return nil, "none"
	}
	if secret := r.PostForm.Get("client_secret"); secret != "" || c.secret != "" {
		if secret != c.secret {
			return nil, "client_secret_post"
		}
		return c, "client_secret_post"
	}
	return c, "none"
}
