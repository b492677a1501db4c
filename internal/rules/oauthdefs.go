package rules

import "github.com/mcptrail/mcptrail/internal/finding"

// mcpAuth names a section of the MCP authorization page the protocol
// brief points to.
func mcpAuth(section string) string { return spec + "basic/authorization (" + section + ")" }

func oauthRules() []finding.Rule {
	const c = finding.OAuth
	return []finding.Rule{
		{ID: finding.OAuthResourceMismatch, Category: c, Severity: finding.Error,
			Summary: "the protected-resource metadata's resource does not identify the URL the client used",
			Help: "A client must check that the resource of the protected-resource metadata is the server it is talking to " +
				"(the SDKs accept the URL itself or a path prefix of it on the same origin) and stops when it is not: the " +
				"TypeScript SDK fails with \"Protected resource ... does not match expected\". A reverse proxy in front of " +
				"the server causes it (use mcptrail http --forward); so does a server that advertises another host or path.",
			Spec: "RFC 9728 §3.3 and §7.3; " + mcpAuth("Protected Resource Metadata")},
		{ID: finding.OAuthMetadataMissing, Category: c, Severity: finding.Error,
			Summary: "a 401 without resource_metadata, and no protected-resource metadata at the well-known locations",
			Help: "An MCP server behind OAuth answers 401 with WWW-Authenticate: Bearer resource_metadata=\"...\" and serves " +
				"RFC 9728 metadata; a client falls back to /.well-known/oauth-protected-resource (path-inserted, then at the " +
				"root). When neither the header nor a well-known fetch gave metadata, the client cannot find the " +
				"authorization server and the flow stops.",
			Spec: "RFC 9728 §5.1 and §3.1; " + spec + "§5.2 (status codes: 401)"},
		{ID: finding.OAuthIssuerMismatch, Category: c, Severity: finding.Error,
			Summary: "authorization-server metadata's issuer differs from the issuer it was fetched for, or the callback's iss from the issuer",
			Help: "The issuer in authorization-server metadata must be identical to the issuer identifier the metadata URL was " +
				"formed from (the one the resource metadata lists), and an authorization response's iss must equal it: a " +
				"client must reject the metadata or the response otherwise, since a mix-up attack looks exactly like this.",
			Spec: "RFC 8414 §3.3; RFC 9207 §2.4; " + mcpAuth("Authorization Server Metadata Discovery")},
		{ID: finding.OAuthEndpointInsecure, Category: c, Severity: finding.Error,
			Summary: "an authorization, token or registration endpoint is not https and not on loopback",
			Help: "Authorization codes, client credentials and tokens cross these endpoints; OAuth 2.1 requires TLS for all of " +
				"them, and the MCP authorization spec requires https for every authorization server endpoint. Only " +
				"loopback (localhost, 127.0.0.0/8, ::1) is exempt, for development.",
			Spec: "OAuth 2.1 §1.5; RFC 8414 §2; " + mcpAuth("Communication Security")},
		{ID: finding.OAuthPKCENotS256, Category: c, Severity: finding.Error,
			Summary: "the authorization server does not advertise PKCE S256, or the authorization request does not use it",
			Help: "MCP clients must use PKCE with S256 and must refuse to proceed when the server's metadata lacks S256 in " +
				"code_challenge_methods_supported (absent means no PKCE support); an authorization request with " +
				"code_challenge_method plain, or no code_challenge, gives an intercepted code to whoever holds it.",
			Spec: "RFC 7636 §4.2 and §7.2; OAuth 2.1 §4.1.1; " + mcpAuth("Authorization Code Protection")},
		{ID: finding.OAuthResourceParamMiss, Category: c, Severity: finding.Warning,
			Summary: "a token request without the RFC 8707 resource parameter",
			Help: "MCP clients must send resource (the server's canonical URI) in authorization and token requests, so the " +
				"token's audience is that server and cannot be replayed against another. Many servers accept the request " +
				"anyway, so this is a warning; a server that checks the audience may reject the token (oauth-token-rejected).",
			Spec: "RFC 8707 §2; " + mcpAuth("Resource Parameter Implementation")},
		{ID: finding.OAuthTokenInQuery, Category: c, Severity: finding.Error,
			Summary: "an access_token travels in a URL query string",
			Help: "Access tokens must travel in the Authorization header, never in the query string, where logs, proxies and " +
				"browser history keep them. mcptrail redacts the value in the capture; the finding says where it was.",
			Spec: "OAuth 2.1 §5.1; " + spec + "§5.2 (Authorization: the token MUST NOT go in the query string)"},
		{ID: finding.OAuthTokenRejected, Category: c, Severity: finding.Error,
			Summary: "the first request with a freshly issued token is answered 401 or 403",
			Help: "The token endpoint issued a token, and the first MCP request that carried it was refused: usually an " +
				"audience mismatch (the token names another resource: see oauth-resource-parameter-missing and " +
				"oauth-resource-mismatch), a scope the server does not accept, or a server that cannot validate the issuer's tokens.",
			Spec: "RFC 6750 §3.1; RFC 8707 §2; " + mcpAuth("Token Audience Binding and Validation")},
		{ID: finding.OAuthMetadataWrongPath, Category: c, Severity: finding.Warning,
			Summary: "authorization-server metadata for a path-bearing issuer at a well-known location without the path inserted",
			Help: "For an issuer with a path (https://as.example/tenant1) RFC 8414 forms the metadata URL by inserting the " +
				"well-known suffix before the path (https://as.example/.well-known/oauth-authorization-server/tenant1); " +
				"OpenID discovery also allows appending it after the path. Metadata fetched at the root, or appended to an " +
				"RFC 8414 suffix, works only with clients that guess; spec-following clients miss it.",
			Spec: "RFC 8414 §3.1 and §5; " + mcpAuth("Authorization Server Metadata Discovery")},
		{ID: finding.OAuthMetadataAroundProxy, Category: c, Severity: finding.Warning,
			Summary: "behind mcptrail http --target, a 401 names resource_metadata on the target's own origin",
			Help: "The client fetches the protected-resource metadata where the 401's WWW-Authenticate says, on the target, " +
				"around the proxy (the capture cannot see that fetch), and finds a resource that is not the proxy's URL it " +
				"used: clients that follow RFC 9728 stop there, and the session ends with the 401. Nothing is wrong with the " +
				"server; point the client at the server's own URL and run mcptrail http --forward instead.",
			Spec: "RFC 9728 §5.1 and §7.3; " + mcpAuth("Protected Resource Metadata Discovery Requirements")},
	}
}
