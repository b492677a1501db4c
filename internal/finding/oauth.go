package finding

// Rule ids raised for the authorization flow in front of a remote server
// (internal/rules/oauth.go, over internal/oauth's reading of the flow).
const (
	OAuthResourceMismatch  = "oauth-resource-mismatch"
	OAuthMetadataMissing   = "oauth-metadata-missing"
	OAuthIssuerMismatch    = "oauth-issuer-mismatch"
	OAuthEndpointInsecure  = "oauth-endpoint-insecure"
	OAuthPKCENotS256       = "oauth-pkce-not-s256"
	OAuthResourceParamMiss = "oauth-resource-parameter-missing"
	OAuthTokenInQuery      = "oauth-token-in-query"
	OAuthTokenRejected     = "oauth-token-rejected"
	OAuthMetadataWrongPath = "oauth-metadata-wrong-path"
	// OAuthMetadataAroundProxy: behind the reverse proxy, a 401 names
	// absolute resource_metadata on the target's own origin.
	OAuthMetadataAroundProxy = "oauth-metadata-around-proxy"
)

// Rule ids raised for DPoP proofs (RFC 9449; the MCP profile SEP-1932):
// each proof a request carried, checked against that request.
const (
	DPoPProofMalformed = "dpop-proof-malformed"
	DPoPHTMMismatch    = "dpop-htm-mismatch"
	DPoPHTUMismatch    = "dpop-htu-mismatch"
	DPoPATHMismatch    = "dpop-ath-mismatch"
	DPoPIATSkew        = "dpop-iat-skew"
	DPoPJTIReplayed    = "dpop-jti-replayed"
)
