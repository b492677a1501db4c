package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/oauth"
)

// dpopSkew is how far a proof's iat may lie from the time the proxy saw
// it: the ±5 minutes of the MCP DPoP profile's conformance tests
// (modelcontextprotocol/conformance issue #369); RFC 9449 §11.1 leaves the
// window to the server.
const dpopSkew = 5 * time.Minute

// dpopRFC cites RFC 9449 and the MCP profile.
const dpopRFC = "RFC 9449 "

// dpopFindings raises the DPoP findings of a session's proofs, in seq
// order (oauth.Auth.Proofs). A jti is judged against every earlier proof of
// the session: the proxy sees one client, and a proof is single-use.
func dpopFindings(proofs []oauth.Proof, raise func(finding.Finding)) {
	jtis := map[string]uint64{}
	for i := range proofs {
		p := &proofs[i]
		at := func(f finding.Finding) { raiseAt(raise, p.Line, f) }
		of := p.Method + " " + p.URL
		if why := proofProblem(p); why != "" {
			at(finding.New(finding.DPoPProofMalformed, p.Seq, "the DPoP proof of %s is malformed: %s", of, why))
			if p.Problem != "" {
				continue // nothing else can be read
			}
		}
		if p.HTM != "" && p.HTM != p.Method {
			at(finding.New(finding.DPoPHTMMismatch, p.Seq, "the DPoP proof of %s has htm %q", of, p.HTM))
		}
		if p.HTU != "" && !p.HTUMatches() {
			where := "URL"
			if p.PathOnly {
				where = "path (the client addressed the proxy, so only paths compare)"
			}
			at(finding.New(finding.DPoPHTUMismatch, p.Seq, "the DPoP proof of %s has htu %q, which is not the request's %s", of, p.HTU, where))
		}
		switch p.ATH {
		case oauth.ATHMismatch:
			at(finding.New(finding.DPoPATHMismatch, p.Seq, "the DPoP proof of %s has an ath that is not the SHA-256 of the DPoP token it came with", of))
		case oauth.ATHMissing:
			at(finding.New(finding.DPoPATHMismatch, p.Seq, "the DPoP proof of %s has no ath, but came with a DPoP token", of))
		}
		if p.IAT != 0 {
			if d := p.Time.Sub(time.Unix(p.IAT, 0)); d > dpopSkew || d < -dpopSkew {
				at(finding.New(finding.DPoPIATSkew, p.Seq, "the DPoP proof of %s was issued %s the proxy saw it (iat %d)", of, skewText(d), p.IAT))
			}
		}
		if p.JTI == "" {
			continue
		}
		if first, seen := jtis[p.JTI]; seen {
			at(finding.New(finding.DPoPJTIReplayed, p.Seq, "the DPoP proof of %s reuses jti %q of the proof at #%d", of, p.JTI, first))
		} else {
			jtis[p.JTI] = p.Seq
		}
	}
}

// proofProblem says what makes a proof malformed (RFC 9449 §4.2, §4.3
// checks 1-7): not a JWT, a wrong typ, a symmetric or none alg, no public
// jwk or one with private members, a required claim missing; "" for none.
func proofProblem(p *oauth.Proof) string {
	var why []string
	switch {
	case p.Problem != "":
		return p.Problem
	case p.Typ != mcp.DPoPType:
		why = append(why, fmt.Sprintf("typ %q is not %s", p.Typ, mcp.DPoPType))
	}
	if a := strings.ToLower(p.Alg); a == "" || a == "none" || strings.HasPrefix(a, "hs") {
		why = append(why, fmt.Sprintf("alg %q is not an asymmetric signature algorithm", p.Alg))
	}
	switch {
	case !p.JWK:
		why = append(why, "the header has no jwk")
	case p.JWKPrivate:
		why = append(why, "the jwk carries private key members")
	}
	var missing []string
	for _, c := range []struct {
		name string
		ok   bool
	}{{"jti", p.JTI != ""}, {"htm", p.HTM != ""}, {"htu", p.HTU != ""}, {"iat", p.IAT != 0}} {
		if !c.ok {
			missing = append(missing, c.name)
		}
	}
	if len(missing) > 0 {
		why = append(why, "it lacks "+strings.Join(missing, ", "))
	}
	return strings.Join(why, "; ")
}

// skewText says how far before or after it was seen a proof was issued.
func skewText(d time.Duration) string {
	if d > 0 {
		return d.Round(time.Second).String() + " before"
	}
	return (-d).Round(time.Second).String() + " after"
}

// dpopRules are the DPoP rules (dpop.go), in the oauth category.
func dpopRules() []finding.Rule {
	const c = finding.OAuth
	const nothing = " mcptrail checks what the capture keeps (the proof without its signature, the token as its hash), not the signature."
	return []finding.Rule{
		{ID: finding.DPoPProofMalformed, Category: c, Severity: finding.Error,
			Summary: "a DPoP proof is not a dpop+jwt with an asymmetric alg, a public jwk, and jti, htm, htu and iat",
			Help: "A DPoP proof is a JWT whose header has typ dpop+jwt, an asymmetric alg (not none, not an HMAC) and the public " +
				"key as jwk (no private members), and whose claims carry jti, htm, htu and iat. A server must reject any " +
				"other." + nothing,
			Spec: dpopRFC + "§4.2, §4.3 (checks 1-7); modelcontextprotocol/modelcontextprotocol PR #1932 (SEP-1932)"},
		{ID: finding.DPoPHTMMismatch, Category: c, Severity: finding.Error,
			Summary: "a DPoP proof's htm is not the method of the request that carried it",
			Help:    "htm must be the HTTP method of the request the proof accompanies; a server must reject a proof for another method.",
			Spec:    dpopRFC + "§4.2, §4.3 (check 8)"},
		{ID: finding.DPoPHTUMismatch, Category: c, Severity: finding.Error,
			Summary: "a DPoP proof's htu is not the URL of the request that carried it",
			Help: "htu must be the request's URI without query and fragment, compared after syntax-based normalization. Behind " +
				"mcptrail http (the reverse proxy) the client addresses the proxy, so only the paths are compared; the forward " +
				"proxy sees the URL the client used.",
			Spec: dpopRFC + "§4.2, §4.3 (check 9)"},
		{ID: finding.DPoPATHMismatch, Category: c, Severity: finding.Error,
			Summary: "a DPoP proof sent with a DPoP token has no ath, or an ath that is not the token's SHA-256",
			Help: "A proof sent to a resource server with an access token (Authorization: DPoP) must carry ath, the base64url " +
				"SHA-256 of that token, and the server must check it. The tap keeps the token's hash, never the token, to compare.",
			Spec: dpopRFC + "§4.2, §4.3 (check 12), §7.1"},
		{ID: finding.DPoPIATSkew, Category: c, Severity: finding.Warning,
			Summary: "a DPoP proof's iat is more than 5 minutes from when the proxy saw it",
			Help: "A server accepts a proof only within a window around its iat; the MCP DPoP profile's conformance tests use " +
				"±5 minutes. A clock that is off, or a proof kept and sent later, is rejected (and often answered use_dpop_nonce).",
			Spec: dpopRFC + "§4.3 (check 11), §11.1; modelcontextprotocol/conformance issue #369"},
		{ID: finding.DPoPJTIReplayed, Category: c, Severity: finding.Error,
			Summary: "a DPoP proof reuses the jti of an earlier proof",
			Help: "Each request gets a fresh proof with a unique jti; a server tracking jtis rejects a repeated one as a replay, " +
				"and one that does not is open to replay.",
			Spec: dpopRFC + "§4.2 (jti), §11.1"},
	}
}
