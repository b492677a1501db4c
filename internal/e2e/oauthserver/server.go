// Package oauthserver is the OAuth-protected MCP server the end-to-end tests
// drive real clients against: a resource server (the official go-sdk's
// Streamable HTTP handler with one tool, whoami, behind bearer tokens) and a
// separate authorization server on its own listener, with RFC 9728
// protected-resource metadata, RFC 8414 authorization-server metadata, RFC
// 7591 dynamic registration, an authorization endpoint that approves at once
// and answers with code, state and iss (RFC 9207), and a token endpoint that
// enforces PKCE S256 and the RFC 8707 resource parameter and binds each token
// to that audience. Knobs in Options make it misbehave the ways the oauth
// rules look for.
//
// Every secret it hands out carries Marker, so a test can grep a capture for
// leaks; Observed reports what the server saw (challenge methods, verifiers,
// resource parameters, audience checks, tool calls). A Server is safe for
// concurrent use; it is test support and never part of mcptrail.
package oauthserver

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
)

// Marker starts every secret the server issues (codes, tokens, client
// secrets), so a test finds a leak with one search.
const Marker = "CANARY-"

// Prefixes of the secrets the server issues; each is followed by a number
// counting from 1 per server.
const (
	CodePrefix         = Marker + "CODE-"
	AccessTokenPrefix  = Marker + "ACCESS-TOKEN-"
	RefreshTokenPrefix = Marker + "REFRESH-TOKEN-"
	ClientSecretPrefix = Marker + "CLIENT-SECRET-"
)

// Scope is the one scope the resource server asks for.
const Scope = "mcp:tools"

// MCPPath is where the resource server serves MCP.
const MCPPath = "/mcp"

// Options configure a Server; the zero value is a correct server over
// plain HTTP. Each fault knob makes one thing wrong and leaves the rest
// correct.
type Options struct {
	// TLS serves both listeners over HTTPS with Cert; nil means plain HTTP.
	TLS *tls.Config

	// IssuerPath makes the issuer path-bearing (e.g. "/tenant1"): the
	// issuer is the AS origin plus this path and its metadata sits at
	// /.well-known/oauth-authorization-server/tenant1 (RFC 8414 §3.1).
	// Empty means the issuer is the bare origin.
	IssuerPath string

	// WrongResource makes the protected-resource metadata name another
	// resource than the URL the client used.
	WrongResource bool
	// NoResourceMetadataParam leaves resource_metadata out of the 401's
	// WWW-Authenticate header.
	NoResourceMetadataParam bool
	// NoProtectedResourceMetadata answers 404 at the well-known
	// protected-resource locations.
	NoProtectedResourceMetadata bool
	// IssuerMismatch makes the AS metadata's issuer differ from the URL
	// it is served for (RFC 8414 §3.3).
	IssuerMismatch bool
	// WrongIss sends a wrong iss in the authorization response (RFC 9207).
	WrongIss bool
	// PKCEPlain advertises only the plain PKCE method and accepts it.
	PKCEPlain bool
	// WrongWellKnownPath serves a path-bearing issuer's metadata at
	// ISSUER/.well-known/oauth-authorization-server (the path appended,
	// not inserted) and not at the RFC 8414 location. It needs IssuerPath.
	WrongWellKnownPath bool
	// AcceptQueryToken lets the resource server take the access token
	// from an access_token query parameter (RFC 6750 §2.3, discouraged).
	AcceptQueryToken bool
	// WrongAudience binds issued tokens to another audience than the
	// requested resource, so the resource server rejects a fresh token.
	WrongAudience bool
	// AllowMissingResource accepts token requests without the RFC 8707
	// resource parameter, binding the token to the resource server.
	AllowMissingResource bool
}

// Server is a running resource server and authorization server.
type Server struct {
	opts Options
	rs   *httptest.Server
	as   *httptest.Server
	// rsURL and asURL are the servers' origins, known from their
	// listeners before they start, so the handlers can be built first.
	rsURL, asURL string
	st           *state
}

// New starts a resource server and an authorization server on loopback;
// opts nil means defaults. Close stops both.
func New(opts *Options) *Server {
	s := &Server{st: newState()}
	if opts != nil {
		s.opts = *opts
	}
	s.rs = httptest.NewUnstartedServer(nil)
	s.as = httptest.NewUnstartedServer(nil)
	scheme := "http://"
	if s.opts.TLS != nil {
		scheme = "https://"
	}
	s.rsURL, s.asURL = scheme+s.rs.Listener.Addr().String(), scheme+s.as.Listener.Addr().String()
	s.rs.Config.Handler = s.resourceHandler()
	s.as.Config.Handler = s.authHandler()
	if s.opts.TLS != nil {
		s.rs.TLS, s.as.TLS = s.opts.TLS.Clone(), s.opts.TLS.Clone()
		s.rs.StartTLS()
		s.as.StartTLS()
	} else {
		s.rs.Start()
		s.as.Start()
	}
	return s
}

// Close stops both servers.
func (s *Server) Close() {
	s.rs.CloseClientConnections()
	s.as.CloseClientConnections()
	s.rs.Close()
	s.as.Close()
}

// URL is the MCP endpoint clients connect to: the resource's identifier.
func (s *Server) URL() string { return s.rsURL + MCPPath }

// ResourceOrigin is the resource server's origin (scheme://host:port).
func (s *Server) ResourceOrigin() string { return s.rsURL }

// AuthOrigin is the authorization server's origin.
func (s *Server) AuthOrigin() string { return s.asURL }

// Issuer is the authorization server's issuer identifier.
func (s *Server) Issuer() string { return s.asURL + s.opts.IssuerPath }

// ResourceMetadataURL is the RFC 9728 path-inserted metadata URL the 401
// points to.
func (s *Server) ResourceMetadataURL() string {
	return s.rsURL + "/.well-known/oauth-protected-resource" + MCPPath
}

// AuthMetadataURL is where the AS metadata is served: the RFC 8414
// location, or the wrong one under WrongWellKnownPath.
func (s *Server) AuthMetadataURL() string {
	if s.opts.WrongWellKnownPath {
		return s.Issuer() + "/.well-known/oauth-authorization-server"
	}
	return s.asURL + "/.well-known/oauth-authorization-server" + s.opts.IssuerPath
}

// advertisedResource is the resource the metadata names.
func (s *Server) advertisedResource() string {
	if s.opts.WrongResource {
		return s.rsURL + "/elsewhere"
	}
	return s.URL()
}

// endpoint is the URL of the AS endpoint name under the issuer.
func (s *Server) endpoint(name string) string { return s.Issuer() + "/" + name }

// state is what the servers remember between requests, and what they saw.
type state struct {
	mu      sync.Mutex
	n       int                // numbers issued secrets
	clients map[string]*client // by client_id
	codes   map[string]*grant  // by code
	tokens  map[string]*grant  // by access token
	refresh map[string]*grant  // by refresh token
	seen    Observed
}

func newState() *state {
	return &state{clients: map[string]*client{}, codes: map[string]*grant{}, tokens: map[string]*grant{}, refresh: map[string]*grant{}}
}

// next returns prefix followed by the next number.
func (st *state) next(prefix string) string {
	st.n++
	return prefix + strconv.Itoa(st.n)
}

// client is one registration.
type client struct {
	id, secret, authMethod string
	redirectURIs           []string
}

// grant is one authorization: a code, then the tokens it became.
type grant struct {
	clientID, redirectURI, challenge, method, resource, scope string
	audience                                                  string
}

// writeOAuthError answers an OAuth error (RFC 6749 §5.2).
func writeOAuthError(w http.ResponseWriter, code int, kind, desc string) {
	writeJSON(w, code, map[string]string{"error": kind, "error_description": desc})
}

// document records that the metadata document at u was served.
func (st *state) document(u string) {
	st.mu.Lock()
	st.seen.Documents = append(st.seen.Documents, u)
	st.mu.Unlock()
}
