package oauth

import (
	"encoding/base64"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

func TestHTUMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, htu string
		pathOnly bool
		want     bool
	}{
		{"https://rs.example.com/mcp?x=1", "https://rs.example.com/mcp", false, true},
		{"https://RS.example.com:443/mcp", "HTTPS://rs.example.com/mcp#frag", false, true},
		{"https://rs.example.com", "https://rs.example.com/", false, true},
		{"https://rs.example.com/mcp", "https://rs.example.com/other", false, false},
		{"https://rs.example.com/mcp", "http://rs.example.com/mcp", false, false},
		{"https://rs.example.com/mcp", "https://rs.example.com:8443/mcp", false, false},
		// Behind the reverse proxy the client addressed the proxy: paths only.
		{"http://upstream:9/mcp", "http://127.0.0.1:8080/mcp", true, true},
		{"http://upstream:9/mcp", "http://127.0.0.1:8080/other", true, false},
		{"https://rs.example.com/mcp", "%zz", false, false},
	} {
		p := Proof{URL: tc.url, HTU: tc.htu, PathOnly: tc.pathOnly}
		if got := p.HTUMatches(); got != tc.want {
			t.Errorf("htu %q for %q (path only %v): %v, want %v", tc.htu, tc.url, tc.pathOnly, got, tc.want)
		}
	}
}

func TestProofATH(t *testing.T) {
	t.Parallel()
	enc := base64.RawURLEncoding.EncodeToString
	proof := func(claims string) string {
		return enc([]byte(`{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC"}}`)) + "." + enc([]byte(claims)) + "."
	}
	kept, _ := mcp.KeptDPoPAuth("DPoP tok")
	for _, tc := range []struct {
		name, proof, auth, want string
	}{
		{"the token's hash", proof(`{"ath":"` + mcp.TokenHash("tok") + `"}`), kept, ATHMatch},
		{"another token's", proof(`{"ath":"` + mcp.TokenHash("other") + `"}`), kept, ATHMismatch},
		{"no ath with a DPoP token", proof(`{}`), kept, ATHMissing},
		{"an ath without a DPoP token", proof(`{"ath":"x"}`), "Bearer [present]", ATHUnbound},
		{"a token request: neither", proof(`{}`), "", ""},
	} {
		if got := newProof(tc.proof, tc.auth, Proof{}).ATH; got != tc.want {
			t.Errorf("%s: ath %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestTokenGrantKinds(t *testing.T) {
	t.Parallel()
	for grant, want := range map[string]string{
		"authorization_code":   StepToken,
		"refresh_token":        StepToken,
		GrantClientCredentials: StepClientCredentials,
		"urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer": StepClientCredentials,
		"urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token=%5BREDACTED%5D&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid_token": StepTokenExchange,
	} {
		x := &store.Exchange{Exchange: &capture.Exchange{Method: "POST", URL: "https://as/token", Status: 200,
			ReqBody: "grant_type=" + grant, RespBody: `{"access_token":"[REDACTED]","issued_token_type":"urn:ietf:params:oauth:token-type:access_token"}`}}
		st := tokenStep(x)
		if st.Kind != want || !IsToken(st.Kind) {
			t.Errorf("grant %s: kind %q, want %q", grant, st.Kind, want)
		}
		if st.Kind == StepTokenExchange && (st.Token.SubjectTokenType == "" || st.Token.IssuedTokenType == "") {
			t.Errorf("token exchange: %+v, want its token types", st.Token)
		}
	}
}
