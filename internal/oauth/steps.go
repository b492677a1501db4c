package oauth

import (
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// exchangeStep is the step common part of an exchange.
func exchangeStep(x *store.Exchange, kind string) Step {
	return Step{Kind: kind, Seq: x.Seq, Line: x.Line, Time: x.Time, DurationMS: float64(x.DurationUS) / 1000,
		Method: x.Method, URL: x.URL, Status: x.Status, OK: success(x.Status) && x.Error == "", Error: x.Error}
}

func success(status int) bool { return status >= 200 && status <= 299 }

// oauthError copies an OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2)
// into the step; it reports whether there was one.
func oauthError(st *Step, o object) bool {
	if e := o.str("error"); e != "" {
		st.Error, st.ErrorDescription, st.OK = e, o.str("error_description"), false
		return true
	}
	return false
}

func resourceStep(x *store.Exchange) Step {
	st := exchangeStep(x, StepResourceMeta)
	o := jsonObject(x.RespBody)
	st.Resource = &ResourceMetadata{Resource: o.str("resource"),
		AuthorizationServers: o.strs("authorization_servers"), ScopesSupported: o.strs("scopes_supported")}
	if st.OK && o == nil {
		st.OK, st.Error = false, "not a JSON object"
	}
	return st
}

func serverStep(x *store.Exchange, at location) Step {
	st := exchangeStep(x, StepServerMeta)
	o := jsonObject(x.RespBody)
	st.Server = &ServerMetadata{Issuer: o.str("issuer"), FetchedFor: at.id, OIDC: at.oidc,
		AuthorizationEndpoint: o.str("authorization_endpoint"), TokenEndpoint: o.str("token_endpoint"),
		RegistrationEndpoint: o.str("registration_endpoint"), CodeChallengeMethods: o.strs("code_challenge_methods_supported"),
		IssParameter: o.boolean("authorization_response_iss_parameter_supported")}
	if st.OK && o == nil {
		st.OK, st.Error = false, "not a JSON object"
	}
	return st
}

func registrationStep(x *store.Exchange) Step {
	st := exchangeStep(x, StepRegistration)
	req, resp := jsonObject(x.ReqBody), jsonObject(x.RespBody)
	oauthError(&st, resp)
	// The answer says what was granted; the request what was asked.
	pick := func(name string) object {
		if resp.has(name) {
			return resp
		}
		return req
	}
	st.Registration = &Registration{ClientID: resp.str("client_id"), ClientName: pick("client_name").str("client_name"),
		RedirectURIs: pick("redirect_uris").strs("redirect_uris"), GrantTypes: pick("grant_types").strs("grant_types"),
		TokenEndpointAuthMethod: pick("token_endpoint_auth_method").str("token_endpoint_auth_method")}
	return st
}

func authorizationStep(x *store.Exchange) Step {
	st := exchangeStep(x, StepAuthorization)
	q := query(x.URL)
	st.Authorization = &AuthorizationRequest{ClientID: q.Get("client_id"), ResponseType: q.Get("response_type"),
		CodeChallenge: q.Has("code_challenge"), CodeChallengeMethod: q.Get("code_challenge_method"),
		Resource: q["resource"], Scope: q.Get("scope"), State: q.Has("state"), RedirectURI: q.Get("redirect_uri"),
		ResponseIss: query(x.RespHeaders["Location"]).Get("iss")}
	// A redirect to the client is what a working authorization endpoint
	// answers; the user's consent happens in between.
	st.OK = x.Error == "" && (success(x.Status) || x.Status >= 300 && x.Status <= 399)
	return st
}

func callbackStep(x *store.Exchange) Step {
	st := exchangeStep(x, StepCallback)
	q := query(x.URL)
	st.Callback = &Callback{Code: q.Has("code"), State: q.Has("state"), Iss: q.Get("iss"), Error: q.Get("error")}
	if st.Callback.Error != "" {
		st.OK, st.Error, st.ErrorDescription = false, st.Callback.Error, q.Get("error_description")
	}
	return st
}

// tokenStep reads a token request: a step of kind StepTokenExchange for
// RFC 8693's grant, StepClientCredentials for client_credentials and
// jwt-bearer, StepToken for the others.
func tokenStep(x *store.Exchange) Step {
	f := form(x.ReqBody)
	kind := StepToken
	switch f.Get("grant_type") {
	case GrantTokenExchange:
		kind = StepTokenExchange
	case GrantClientCredentials, GrantJWTBearer:
		kind = StepClientCredentials
	}
	st := exchangeStep(x, kind)
	resp := jsonObject(x.RespBody)
	oauthError(&st, resp)
	st.Token = &Token{GrantType: f.Get("grant_type"), Resource: f["resource"], ScopeAsked: f.Get("scope"),
		ScopeGranted: resp.str("scope"), TokenType: resp.str("token_type"), ExpiresIn: resp.num("expires_in"),
		Refresh: resp.has("refresh_token"), DPoP: header(x.ReqHeaders, mcp.HeaderDPoP) != "",
		SubjectTokenType: f.Get("subject_token_type"), ActorTokenType: f.Get("actor_token_type"),
		RequestedTokenType: f.Get("requested_token_type"), IssuedTokenType: resp.str("issued_token_type"),
		Audience: f.Get("audience"), Assertion: f.Has("client_assertion") || f.Get("grant_type") == GrantJWTBearer}
	if st.OK && !resp.has("access_token") {
		st.OK, st.Error = false, "no access_token in the answer"
	}
	return st
}

// challengeInfo parses the WWW-Authenticate of an MCP answer.
func challengeInfo(header, method string) *ChallengeInfo {
	ci := &ChallengeInfo{Header: header, MCPMethod: method}
	cs, err := ParseChallenges(header)
	if err != nil {
		ci.Malformed = err.Error()
	}
	// The first Bearer or DPoP challenge wins (RFC 9449 §7.1: a server
	// may offer both), else the first of any scheme.
	for _, c := range cs {
		known := strings.EqualFold(c.Scheme, "Bearer") || strings.EqualFold(c.Scheme, mcp.SchemeDPoP)
		if known || ci.Scheme == "" {
			ci.Scheme, ci.ResourceMetadata, ci.Scope, ci.Error = c.Scheme, c.Params["resource_metadata"], c.Params["scope"], c.Params["error"]
			ci.Algs = c.Params["algs"]
		}
		if known {
			break
		}
	}
	return ci
}
