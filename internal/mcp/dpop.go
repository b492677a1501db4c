package mcp

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// DPoP (RFC 9449; the MCP profile is SEP-1932, modelcontextprotocol PR
// #1932): a client proves possession of a key by sending, with each
// request, a DPoP header holding a JWT signed with it (the proof), and
// presents a DPoP-bound access token as "Authorization: DPoP <token>".
// Servers challenge with "WWW-Authenticate: DPoP" and may supply nonces in
// DPoP-Nonce.
const (
	HeaderDPoP      = "DPoP"
	HeaderDPoPNonce = "DPoP-Nonce"
	SchemeDPoP      = "DPoP"
	// DPoPType is the typ a proof's JOSE header must carry (RFC 9449 §4.2).
	DPoPType = "dpop+jwt"
)

// DPoPProof is what a DPoP proof says, decoded from its first two
// segments. The signature is never read or kept: a proof as the capture
// keeps it has none (StripDPoP). Zero fields were absent.
type DPoPProof struct {
	// Problem says why the proof could not be read whole ("" when it
	// was): a shape, base64url or JSON fault.
	Problem string
	// Typ and Alg are the JOSE header's; JWK reports whether it carries
	// a jwk object, JWKPrivate whether that jwk has a private member
	// (d, p, q, dp, dq, qi, k).
	Typ, Alg        string
	JWK, JWKPrivate bool
	// The claims (RFC 9449 §4.2). HasIAT reports whether iat was a
	// number; IAT is it in whole seconds. HasATH tells an absent ath
	// from an empty one.
	JTI, HTM, HTU string
	IAT           int64
	HasIAT        bool
	ATH           string
	HasATH        bool
	Nonce         string
}

// ParseDPoP decodes a DPoP header value: a JWS in compact serialization
// (three dot-separated base64url segments; the signature may be empty, as
// the capture keeps it). It never fails: a value that cannot be read
// gives a proof with Problem set and what could be read before the fault.
func ParseDPoP(v string) DPoPProof {
	var p DPoPProof
	parts := strings.Split(strings.TrimSpace(v), ".")
	if len(parts) != 3 && len(parts) != 2 {
		p.Problem = "not a compact JWS (" + strconv.Itoa(len(parts)) + " segments)"
		return p
	}
	head, ok := segment(parts[0])
	if !ok {
		p.Problem = "the header is not base64url-encoded JSON"
		return p
	}
	p.Typ, _ = jsonraw.String(jsonraw.Member(head, "typ"))
	p.Alg, _ = jsonraw.String(jsonraw.Member(head, "alg"))
	if jwk := jsonraw.Member(head, "jwk"); jwk != nil && jwk[0] == '{' {
		p.JWK = true
		for _, m := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
			p.JWKPrivate = p.JWKPrivate || jsonraw.Member(jwk, m) != nil
		}
	}
	claims, ok := segment(parts[1])
	if !ok {
		p.Problem = "the claims are not base64url-encoded JSON"
		return p
	}
	p.JTI, _ = jsonraw.String(jsonraw.Member(claims, "jti"))
	p.HTM, _ = jsonraw.String(jsonraw.Member(claims, "htm"))
	p.HTU, _ = jsonraw.String(jsonraw.Member(claims, "htu"))
	p.Nonce, _ = jsonraw.String(jsonraw.Member(claims, "nonce"))
	if ath := jsonraw.Member(claims, "ath"); ath != nil {
		p.ATH, p.HasATH = jsonraw.String(ath)
	}
	if iat := jsonraw.Member(claims, "iat"); iat != nil {
		if f, err := strconv.ParseFloat(string(iat), 64); err == nil && f > -1e15 && f < 1e15 {
			p.IAT, p.HasIAT = int64(f), true
		}
	}
	return p
}

// segment decodes one base64url segment (padding tolerated) holding a
// JSON object.
func segment(s string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil || !isObject(b) {
		return nil, false
	}
	ok := jsonraw.EachMember(b, func(_, _ []byte) bool { return true })
	return b, ok
}

// StripDPoP returns a DPoP header value as the capture keeps it: its
// header and claims segments with the signature dropped ("h.c."), so the
// proof reads but can never be replayed from a capture. A value that is
// not three segments of base64url characters is kept only as presence.
func StripDPoP(v string) string {
	parts := strings.Split(strings.TrimSpace(v), ".")
	if len(parts) != 3 || !base64URL(parts[0]) || !base64URL(parts[1]) {
		return "[present]"
	}
	return parts[0] + "." + parts[1] + "."
}

// base64URL reports whether s is non-empty and all base64url characters.
func base64URL(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// TokenHash is the ath a proof must carry for an access token: the
// base64url (unpadded) SHA-256 of its ASCII bytes (RFC 9449 §4.2).
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// DPoPAuthHash is the parameter the HTTP tap appends to a kept
// "Authorization: DPoP" value, so that a proof's ath can be checked
// without keeping the token: "DPoP [present] sha256=<TokenHash>".
const DPoPAuthHash = "sha256="

// KeptDPoPAuth returns how the capture keeps an "Authorization: DPoP
// <token>" value: the scheme, presence, and the token's hash (which the
// proof's ath carries anyway); ok is false when v is not DPoP.
func KeptDPoPAuth(v string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(v), " ")
	if !found || !strings.EqualFold(scheme, SchemeDPoP) {
		return "", false
	}
	return scheme + " [present] " + DPoPAuthHash + TokenHash(strings.TrimSpace(token)), true
}

// DPoPAuthTokenHash returns the token hash of a kept DPoP Authorization
// value (KeptDPoPAuth), or "" when it has none.
func DPoPAuthTokenHash(kept string) string {
	_, h, ok := strings.Cut(kept, " "+DPoPAuthHash)
	if !ok || !base64URL(h) {
		return ""
	}
	return h
}
