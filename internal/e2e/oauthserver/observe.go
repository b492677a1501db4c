package oauthserver

import "slices"

// Observed is what the servers saw, in arrival order.
type Observed struct {
	// Documents lists the URLs of the metadata documents served (the
	// protected-resource and authorization-server metadata).
	Documents      []string
	Registrations  []Registration
	Authorizations []Authorization
	TokenRequests  []TokenRequest
	AudienceChecks []AudienceCheck
	// ToolCalls lists the client_id behind each whoami call.
	ToolCalls []string
	// Issued lists every secret the servers handed out: codes, access
	// and refresh tokens, client secrets.
	Issued []string
}

// Registration is one dynamic client registration (RFC 7591).
type Registration struct {
	ClientID     string
	AuthMethod   string // token_endpoint_auth_method asked for
	RedirectURIs []string
}

// Authorization is one request to the authorization endpoint.
type Authorization struct {
	ClientID            string
	CodeChallengeMethod string
	Resource            string // RFC 8707 resource parameter, "" if absent
	Scope               string
	Error               string // why it was refused, "" when a code was issued
}

// TokenRequest is one request to the token endpoint.
type TokenRequest struct {
	GrantType    string
	ClientID     string
	ClientAuth   string // how the client authenticated: none, client_secret_basic, client_secret_post
	CodeVerifier string // as the client sent it
	Resource     string // RFC 8707 resource parameter, "" if absent
	Error        string // the OAuth error answered, "" on success
}

// AudienceCheck is the resource server checking one bearer token.
type AudienceCheck struct {
	Audience string // the audience the token is bound to, "" if unknown
	Want     string // the resource server's own URL
	OK       bool
}

// Observed returns a copy of what the servers saw so far.
func (s *Server) Observed() Observed {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	o := s.st.seen
	o.Documents = slices.Clone(o.Documents)
	o.Registrations = slices.Clone(o.Registrations)
	o.Authorizations = slices.Clone(o.Authorizations)
	o.TokenRequests = slices.Clone(o.TokenRequests)
	o.AudienceChecks = slices.Clone(o.AudienceChecks)
	o.ToolCalls = slices.Clone(o.ToolCalls)
	o.Issued = slices.Clone(o.Issued)
	return o
}

// Secrets lists every value that must never reach a capture: what the
// servers issued and every code_verifier the clients sent.
func (o Observed) Secrets() []string {
	out := slices.Clone(o.Issued)
	for _, tr := range o.TokenRequests {
		if tr.CodeVerifier != "" {
			out = append(out, tr.CodeVerifier)
		}
	}
	return out
}
