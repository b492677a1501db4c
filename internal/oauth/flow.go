package oauth

import (
	"maps"
	"slices"
	"time"
)

// Auth is the authorization seen in one session: its flows, in order of
// their first step. The zero value (no flow) means the session shows none.
type Auth struct {
	Flows []Flow `json:"flows"`
	// QueryTokens lists the requests (MCP or not) whose URL query carried
	// an access_token parameter, in seq order.
	QueryTokens []Anchor `json:"query_tokens,omitempty"`
	// Proofs lists every DPoP proof the session's requests carried (MCP
	// requests and exchanges such as token requests), in seq order.
	Proofs []Proof `json:"dpop_proofs,omitempty"`
}

// Anchor locates a record of the capture.
type Anchor struct {
	Seq  uint64 `json:"seq"`
	Line int    `json:"line,omitzero"`
	URL  string `json:"url,omitempty"`
}

// Flow is one authorization of one resource with one authorization server
// (a session may hold several: two servers, or a re-authorization).
type Flow struct {
	// Resource is the MCP endpoint the flow authorizes: the URL the client
	// used, else the protected-resource metadata's resource; "" when
	// neither was seen.
	Resource string `json:"resource,omitempty"`
	// Issuer is the authorization server's issuer: the metadata's, else
	// the first of the resource metadata's authorization_servers.
	Issuer string `json:"issuer,omitempty"`
	Steps  []Step `json:"steps"`
}

// Step kinds, in the order a flow usually takes them.
const (
	StepChallenge     = "challenge"         // an MCP request answered 401 (or 403) and its WWW-Authenticate
	StepResourceMeta  = "resource-metadata" // RFC 9728 protected-resource metadata fetched
	StepServerMeta    = "server-metadata"   // RFC 8414 / OIDC authorization-server metadata fetched
	StepRegistration  = "registration"      // RFC 7591 dynamic client registration
	StepAuthorization = "authorization"     // the authorization request (when it passed the proxy)
	StepCallback      = "callback"          // the redirect back to the client (when it passed the proxy)
	StepToken         = "token"             // a token request (authorization_code, refresh_token, or another grant)
	// StepTokenExchange is an RFC 8693 token exchange (Enterprise-Managed
	// Authorization); StepClientCredentials a client_credentials or
	// RFC 7523 jwt-bearer grant (the oauth-client-credentials extension):
	// token requests with no user in the loop.
	StepTokenExchange     = "token-exchange"
	StepClientCredentials = "client-credentials"
	StepBearer            = "bearer-request" // the first MCP request with a bearer token after the steps before it
)

// Step is one exchange of a flow. Exactly one of the detail pointers is
// set, the one its Kind names.
type Step struct {
	Kind string    `json:"kind"`
	Seq  uint64    `json:"seq"`
	Line int       `json:"line,omitzero"`
	Time time.Time `json:"time"`
	// DurationMS is the time from the request to the answer; zero when
	// unanswered.
	DurationMS float64 `json:"duration_ms"`
	Method     string  `json:"method,omitempty"`
	URL        string  `json:"url,omitempty"`
	// Status is the HTTP status; zero when none was received.
	Status int `json:"status,omitzero"`
	// OK reports whether the step succeeded: a 2xx answer whose body
	// carries no OAuth error (for a challenge: never).
	OK bool `json:"ok"`
	// Error is the OAuth error code of the answer (error, or for a
	// challenge its error param), or the transport error; "" for none.
	Error string `json:"error,omitempty"`
	// ErrorDescription is the answer's error_description, when it has one.
	ErrorDescription string `json:"error_description,omitempty"`

	Challenge     *ChallengeInfo        `json:"challenge,omitempty"`
	Resource      *ResourceMetadata     `json:"resource_metadata,omitempty"`
	Server        *ServerMetadata       `json:"server_metadata,omitempty"`
	Registration  *Registration         `json:"registration,omitempty"`
	Authorization *AuthorizationRequest `json:"authorization,omitempty"`
	Callback      *Callback             `json:"callback,omitempty"`
	Token         *Token                `json:"token,omitempty"`
	Bearer        *BearerRequest        `json:"bearer,omitempty"`
}

// ChallengeInfo is a challenge step's WWW-Authenticate.
type ChallengeInfo struct {
	// Header is the WWW-Authenticate value as received ("" when absent).
	Header string `json:"header,omitempty"`
	// MCPMethod is the method of the MCP request the challenge answered.
	MCPMethod        string `json:"mcp_method,omitempty"`
	Scheme           string `json:"scheme,omitempty"`
	ResourceMetadata string `json:"resource_metadata,omitempty"`
	Scope            string `json:"scope,omitempty"`
	Error            string `json:"error,omitempty"`
	// Algs is a DPoP challenge's algs (RFC 9449 §7.1); Nonce the answer's
	// DPoP-Nonce header (§9).
	Algs  string `json:"algs,omitempty"`
	Nonce string `json:"dpop_nonce,omitempty"`
	// Malformed says why the header could not be parsed whole.
	Malformed string `json:"malformed,omitempty"`
}

// ResourceMetadata is RFC 9728 protected-resource metadata.
type ResourceMetadata struct {
	Resource             string   `json:"resource,omitempty"`
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
}

// ServerMetadata is RFC 8414 authorization-server metadata, or an OpenID
// Connect discovery document (OIDC set).
type ServerMetadata struct {
	Issuer string `json:"issuer,omitempty"`
	// FetchedFor is the issuer identifier the metadata URL was formed from
	// (RFC 8414 §3.1, OIDC discovery §4): the one the metadata's issuer
	// must equal.
	FetchedFor            string   `json:"fetched_for,omitempty"`
	OIDC                  bool     `json:"oidc,omitzero"`
	AuthorizationEndpoint string   `json:"authorization_endpoint,omitempty"`
	TokenEndpoint         string   `json:"token_endpoint,omitempty"`
	RegistrationEndpoint  string   `json:"registration_endpoint,omitempty"`
	CodeChallengeMethods  []string `json:"code_challenge_methods_supported,omitempty"`
	// IssParameter is authorization_response_iss_parameter_supported (RFC 9207).
	IssParameter bool `json:"authorization_response_iss_parameter_supported,omitzero"`
}

// Registration is a dynamic client registration (RFC 7591): what the
// client asked and, when granted, the client id. Never the secret.
type Registration struct {
	ClientID                string   `json:"client_id,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	RedirectURIs            []string `json:"redirect_uris,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
}

// AuthorizationRequest is the authorization request's parameters.
type AuthorizationRequest struct {
	ClientID            string   `json:"client_id,omitempty"`
	ResponseType        string   `json:"response_type,omitempty"`
	CodeChallenge       bool     `json:"code_challenge"`
	CodeChallengeMethod string   `json:"code_challenge_method,omitempty"`
	Resource            []string `json:"resource,omitempty"`
	Scope               string   `json:"scope,omitempty"`
	State               bool     `json:"state"`
	RedirectURI         string   `json:"redirect_uri,omitempty"`
	// ResponseIss is the iss of the authorization response the endpoint
	// redirected to (its Location), when it answered with one (RFC 9207).
	ResponseIss string `json:"response_iss,omitempty"`
}

// Callback is the authorization response delivered to the redirect URI.
type Callback struct {
	Code  bool   `json:"code"`
	State bool   `json:"state"`
	Iss   string `json:"iss,omitempty"`
	Error string `json:"error,omitempty"`
}

// Token is a token request and its answer.
type Token struct {
	GrantType    string   `json:"grant_type,omitempty"`
	Resource     []string `json:"resource,omitempty"`
	ScopeAsked   string   `json:"scope_asked,omitempty"`
	ScopeGranted string   `json:"scope_granted,omitempty"`
	TokenType    string   `json:"token_type,omitempty"`
	// ExpiresIn is the granted lifetime in seconds; zero when not given.
	ExpiresIn int64 `json:"expires_in,omitzero"`
	// Refresh reports whether a refresh token was issued.
	Refresh bool `json:"refresh_token_issued,omitzero"`
	// DPoP reports whether the request carried a DPoP proof (RFC 9449 §5).
	DPoP bool `json:"dpop,omitzero"`
	// SubjectTokenType, ActorTokenType, RequestedTokenType and
	// IssuedTokenType are an RFC 8693 token exchange's (never a token).
	SubjectTokenType   string `json:"subject_token_type,omitempty"`
	ActorTokenType     string `json:"actor_token_type,omitempty"`
	RequestedTokenType string `json:"requested_token_type,omitempty"`
	IssuedTokenType    string `json:"issued_token_type,omitempty"`
	// Audience is the token request's audience (RFC 8693), if any.
	Audience string `json:"audience,omitempty"`
	// Assertion reports whether the request authenticated the client or
	// the grant with a JWT assertion (client_assertion, jwt-bearer).
	Assertion bool `json:"assertion,omitzero"`
}

// IsToken reports whether a step kind is a token request: StepToken,
// StepTokenExchange or StepClientCredentials.
func IsToken(kind string) bool {
	return kind == StepToken || kind == StepTokenExchange || kind == StepClientCredentials
}

// Grant types with a step kind of their own.
const (
	GrantTokenExchange     = "urn:ietf:params:oauth:grant-type:token-exchange"
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"
)

// BearerRequest is an MCP request that carried a bearer token.
type BearerRequest struct {
	MCPMethod string `json:"mcp_method,omitempty"`
	// Scheme is the Authorization scheme: Bearer, or DPoP for a
	// DPoP-bound token (RFC 9449 §7.1).
	Scheme string `json:"scheme,omitempty"`
	// Call is the index of the store call it opened, or -1.
	Call int `json:"call"`
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
