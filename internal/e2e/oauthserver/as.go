package oauthserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
)

// authHandler serves the authorization server: metadata, registration,
// authorization and token endpoints.
func (s *Server) authHandler() http.Handler {
	mux := http.NewServeMux()
	meta, err := url.Parse(s.AuthMetadataURL())
	if err != nil {
		panic(err) // built from httptest's own URL
	}
	mux.HandleFunc("GET "+meta.Path, s.serveAuthMetadata)
	p := s.opts.IssuerPath
	mux.HandleFunc("POST "+p+"/register", s.serveRegister)
	mux.HandleFunc("GET "+p+"/authorize", s.serveAuthorize)
	mux.HandleFunc("POST "+p+"/token", s.serveToken)
	return mux
}

// serveAuthMetadata answers RFC 8414 authorization-server metadata.
func (s *Server) serveAuthMetadata(w http.ResponseWriter, r *http.Request) {
	s.st.document(s.asURL + r.URL.Path)
	issuer := s.Issuer()
	if s.opts.IssuerMismatch {
		issuer = s.asURL + "/someone-else"
	}
	methods := []string{"S256"}
	if s.opts.PKCEPlain {
		methods = []string{"plain"}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         issuer,
		"authorization_endpoint":                         s.endpoint("authorize"),
		"token_endpoint":                                 s.endpoint("token"),
		"registration_endpoint":                          s.endpoint("register"),
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               methods,
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post"},
		"scopes_supported":                               []string{Scope},
		"authorization_response_iss_parameter_supported": true,
	})
}

// serveRegister registers a client (RFC 7591), echoing its metadata.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	var md map[string]any
	if err := json.NewDecoder(r.Body).Decode(&md); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", "body is not a JSON object")
		return
	}
	var uris []string
	if list, ok := md["redirect_uris"].([]any); ok {
		for _, u := range list {
			if s, ok := u.(string); ok {
				uris = append(uris, s)
			}
		}
	}
	if len(uris) == 0 {
		writeOAuthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is required")
		return
	}
	method, _ := md["token_endpoint_auth_method"].(string)
	if method == "" {
		method = "client_secret_basic" // RFC 7591 §2
	}
	st := s.st
	st.mu.Lock()
	c := &client{id: st.next("client-"), authMethod: method, redirectURIs: uris}
	if method != "none" {
		c.secret = st.next(ClientSecretPrefix)
		st.seen.Issued = append(st.seen.Issued, c.secret)
		md["client_secret"] = c.secret
		md["client_secret_expires_at"] = 0
	}
	st.clients[c.id] = c
	st.seen.Registrations = append(st.seen.Registrations, Registration{ClientID: c.id, AuthMethod: method, RedirectURIs: uris})
	st.mu.Unlock()
	md["client_id"] = c.id
	md["client_id_issued_at"] = 1
	md["token_endpoint_auth_method"] = method
	writeJSON(w, http.StatusCreated, md)
}

// serveAuthorize approves at once: it redirects back with code, state and
// iss (RFC 9207), or with an error when the request is wrong.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a := Authorization{ClientID: q.Get("client_id"), CodeChallengeMethod: q.Get("code_challenge_method"),
		Resource: q.Get("resource"), Scope: q.Get("scope")}
	if a.CodeChallengeMethod == "" && q.Get("code_challenge") != "" {
		a.CodeChallengeMethod = "plain" // RFC 7636 §4.3
	}
	redirect := q.Get("redirect_uri")
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.clients[a.ClientID]
	if c == nil || !slices.Contains(c.redirectURIs, redirect) {
		a.Error = "unknown client or redirect_uri"
		st.seen.Authorizations = append(st.seen.Authorizations, a)
		http.Error(w, a.Error, http.StatusBadRequest)
		return
	}
	back := url.Values{"state": {q.Get("state")}, "iss": {s.Issuer()}}
	if s.opts.WrongIss {
		back.Set("iss", s.asURL+"/someone-else")
	}
	switch {
	case q.Get("response_type") != "code":
		a.Error = "unsupported_response_type"
	case q.Get("code_challenge") == "":
		a.Error = "invalid_request" // PKCE is required
	case a.CodeChallengeMethod != s.pkceMethod():
		a.Error = "invalid_request"
	}
	if a.Error != "" {
		back.Set("error", a.Error)
	} else {
		code := st.next(CodePrefix)
		st.seen.Issued = append(st.seen.Issued, code)
		st.codes[code] = &grant{clientID: c.id, redirectURI: redirect, challenge: q.Get("code_challenge"),
			method: a.CodeChallengeMethod, resource: a.Resource, scope: a.Scope}
		back.Set("code", code)
	}
	st.seen.Authorizations = append(st.seen.Authorizations, a)
	http.Redirect(w, r, withQuery(redirect, back), http.StatusFound)
}

// pkceMethod is the one code challenge method the server accepts.
func (s *Server) pkceMethod() string {
	if s.opts.PKCEPlain {
		return "plain"
	}
	return "S256"
}

// withQuery adds v to the query of the URL u.
func withQuery(u string, v url.Values) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := p.Query()
	for k, vs := range v {
		q[k] = vs
	}
	p.RawQuery = q.Encode()
	return p.String()
}

// verifierMatches reports whether verifier answers the challenge (RFC 7636 §4.6).
func verifierMatches(method, challenge, verifier string) bool {
	if verifier == "" {
		return false
	}
	want := verifier
	if method == "S256" {
		sum := sha256.Sum256([]byte(verifier))
		want = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	return subtle.ConstantTimeCompare([]byte(want), []byte(challenge)) == 1
}

// writeJSON answers v as JSON with status code, never cached.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // a client gone mid-answer is not the server's failure
}
