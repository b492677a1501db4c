package mcp

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func TestParseDPoP(t *testing.T) {
	t.Parallel()
	head := b64(`{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","x":"x","y":"y"}}`)
	tests := map[string]struct {
		in   string
		want DPoPProof
	}{
		"a resource request's proof, signature kept": {
			in: head + "." + b64(`{"jti":"j1","htm":"POST","htu":"https://rs/mcp","iat":1785229200,"ath":"h","nonce":"n"}`) + ".sig",
			want: DPoPProof{Typ: "dpop+jwt", Alg: "ES256", JWK: true, JTI: "j1", HTM: "POST", HTU: "https://rs/mcp",
				IAT: 1785229200, HasIAT: true, ATH: "h", HasATH: true, Nonce: "n"},
		},
		"as the capture keeps it (no signature), a token request's (no ath)": {
			in:   head + "." + b64(`{"jti":"j2","htm":"POST","htu":"https://as/token","iat":1.5e9}`) + ".",
			want: DPoPProof{Typ: "dpop+jwt", Alg: "ES256", JWK: true, JTI: "j2", HTM: "POST", HTU: "https://as/token", IAT: 1500000000, HasIAT: true},
		},
		"a private jwk, a string iat": {
			in:   b64(`{"typ":"JWT","alg":"HS256","jwk":{"kty":"EC","d":"secret"}}`) + "." + b64(`{"iat":"now"}`) + ".",
			want: DPoPProof{Typ: "JWT", Alg: "HS256", JWK: true, JWKPrivate: true},
		},
		"one segment":        {in: "abc", want: DPoPProof{Problem: "not a compact JWS (1 segments)"}},
		"bad base64 header":  {in: "!!.e30.", want: DPoPProof{Problem: "the header is not base64url-encoded JSON"}},
		"claims not JSON":    {in: head + "." + b64("nope") + ".", want: DPoPProof{Typ: "dpop+jwt", Alg: "ES256", JWK: true, Problem: "the claims are not base64url-encoded JSON"}},
		"claims not closed":  {in: head + "." + b64(`{"jti":"j"`) + ".", want: DPoPProof{Typ: "dpop+jwt", Alg: "ES256", JWK: true, Problem: "the claims are not base64url-encoded JSON"}},
		"padded base64 kept": {in: head + "==." + b64(`{}`) + "=.", want: DPoPProof{Typ: "dpop+jwt", Alg: "ES256", JWK: true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, ParseDPoP(tc.in)); diff != "" {
				t.Errorf("ParseDPoP (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStripDPoPAndTokenHash(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"aGVhZA.Y2xhaW1z.c2ln": "aGVhZA.Y2xhaW1z.",
		"aGVhZA.Y2xhaW1z.":     "aGVhZA.Y2xhaW1z.",
		"aGVhZA.Y2xhaW1z":      "[present]",
		"a b.c.d":              "[present]",
		"":                     "[present]",
	} {
		if got := StripDPoP(in); got != want {
			t.Errorf("StripDPoP(%q) = %q, want %q", in, got, want)
		}
	}
	// RFC 9449 §7.1's example: the ath of its access token.
	if got, want := TokenHash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"), "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"; got != want {
		t.Errorf("TokenHash = %q, want %q", got, want)
	}
	kept, ok := KeptDPoPAuth("DPoP tok")
	if !ok || DPoPAuthTokenHash(kept) != TokenHash("tok") || strings.Contains(kept, "tok ") {
		t.Errorf("KeptDPoPAuth = %q, %v", kept, ok)
	}
	if _, ok := KeptDPoPAuth("Bearer tok"); ok {
		t.Error("KeptDPoPAuth took a Bearer token")
	}
}

// FuzzParseDPoP holds the proof parser to its contract on any header
// value: no panic; StripDPoP never keeps a third segment; a stripped
// proof reads as the whole one did.
func FuzzParseDPoP(f *testing.F) {
	f.Add(b64(`{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC"}}`) + "." + b64(`{"jti":"j","htm":"GET","htu":"https://x/","iat":1,"ath":"a"}`) + ".sig")
	f.Add("e30.e30.")
	f.Add("..")
	f.Add(b64(`{"jwk":[]}`) + "." + b64(`{"iat":1e400}`) + ".x")
	f.Fuzz(func(t *testing.T, v string) {
		p := ParseDPoP(v)
		s := StripDPoP(v)
		if s != "[present]" {
			if !strings.HasSuffix(s, ".") || strings.Count(s, ".") != 2 {
				t.Fatalf("StripDPoP(%q) = %q keeps a signature", v, s)
			}
			if p.Problem == "" && ParseDPoP(s) != p {
				t.Fatalf("the stripped proof %q reads as %+v, the whole one as %+v", s, ParseDPoP(s), p)
			}
		}
	})
}
