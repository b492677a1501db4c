package oauth

import (
	"strconv"
	"strings"
)

// Details is what matters of the step, in one line of plain text (not
// escaped for a terminal or HTML: views escape it); never a token value,
// since the flow carries none.
func (st *Step) Details() string {
	var p []string
	add := func(k, v string) {
		if v != "" {
			p = append(p, k+"="+v)
		}
	}
	list := func(k string, v []string) {
		if len(v) > 0 {
			p = append(p, k+"=["+strings.Join(v, " ")+"]")
		}
	}
	switch {
	case st.Bearer != nil:
		add("mcp", st.Bearer.MCPMethod)
		if !strings.EqualFold(st.Bearer.Scheme, "Bearer") {
			add("scheme", st.Bearer.Scheme)
		}
	case st.Challenge != nil:
		add("mcp", st.Challenge.MCPMethod)
	}
	if c := st.Challenge; c != nil {
		add("scheme", c.Scheme)
		add("resource_metadata", c.ResourceMetadata)
		add("scope", c.Scope)
		add("error", c.Error)
		add("algs", c.Algs)
		add("dpop_nonce", c.Nonce)
		if c.Header == "" {
			p = append(p, "no WWW-Authenticate")
		}
	}
	if m := st.Resource; m != nil {
		add("resource", m.Resource)
		list("authorization_servers", m.AuthorizationServers)
		list("scopes", m.ScopesSupported)
	}
	if m := st.Server; m != nil {
		serverDetails(m, add, list, &p)
	}
	if r := st.Registration; r != nil {
		add("client_id", r.ClientID)
		list("redirect_uris", r.RedirectURIs)
		list("grant_types", r.GrantTypes)
		add("auth", r.TokenEndpointAuthMethod)
	}
	if a := st.Authorization; a != nil {
		authorizationDetails(a, add, list, &p)
	}
	if c := st.Callback; c != nil {
		p = append(p, "code="+yesNo(c.Code), "state="+yesNo(c.State))
		add("iss", c.Iss)
		add("error", c.Error)
	}
	if k := st.Token; k != nil {
		tokenDetails(k, add, list, &p)
	}
	if st.ErrorDescription != "" {
		p = append(p, strconv.Quote(st.ErrorDescription))
	}
	if len(p) == 0 {
		return "-"
	}
	return strings.Join(p, " ")
}

func serverDetails(m *ServerMetadata, add func(k, v string), list func(k string, v []string), p *[]string) {
	add("issuer", m.Issuer)
	if m.Issuer == "" || strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(m.FetchedFor, "/") {
		add("fetched_for", m.FetchedFor)
	}
	if m.OIDC {
		*p = append(*p, "(OpenID)")
	}
	if len(m.CodeChallengeMethods) == 0 {
		*p = append(*p, "pkce=(none)")
	}
	list("pkce", m.CodeChallengeMethods)
	*p = append(*p, "registration="+yesNo(m.RegistrationEndpoint != ""))
	if m.IssParameter {
		*p = append(*p, "iss_parameter=yes")
	}
}

func authorizationDetails(a *AuthorizationRequest, add func(k, v string), list func(k string, v []string), p *[]string) {
	add("response_type", a.ResponseType)
	switch {
	case !a.CodeChallenge:
		*p = append(*p, "pkce=(none)")
	case a.CodeChallengeMethod == "":
		*p = append(*p, "pkce=plain(default)")
	default:
		add("pkce", a.CodeChallengeMethod)
	}
	list("resource", a.Resource)
	add("scope", a.Scope)
	*p = append(*p, "state="+yesNo(a.State))
	add("redirect_uri", a.RedirectURI)
	add("iss", a.ResponseIss)
}

func tokenDetails(k *Token, add func(k, v string), list func(k string, v []string), p *[]string) {
	add("grant_type", k.GrantType)
	if len(k.Resource) == 0 {
		*p = append(*p, "resource=(none)")
	}
	list("resource", k.Resource)
	add("scope_asked", k.ScopeAsked)
	add("scope_granted", k.ScopeGranted)
	add("token_type", k.TokenType)
	if k.ExpiresIn != 0 {
		*p = append(*p, "expires_in="+strconv.FormatInt(k.ExpiresIn, 10)+"s")
	}
	if k.Refresh {
		*p = append(*p, "refresh_token=issued")
	}
	add("subject_token_type", k.SubjectTokenType)
	add("actor_token_type", k.ActorTokenType)
	add("requested_token_type", k.RequestedTokenType)
	add("issued_token_type", k.IssuedTokenType)
	add("audience", k.Audience)
	if k.Assertion {
		*p = append(*p, "assertion=yes")
	}
	if k.DPoP {
		*p = append(*p, "dpop_proof=yes")
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
