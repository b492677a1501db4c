package httpproxy

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// TestDPoPKeptWithoutSignature: through the reverse proxy, the server gets
// the DPoP proof and the DPoP token byte for byte, while the capture keeps
// the proof without its signature, the token only as its SHA-256, and the
// answer's DPoP-Nonce and WWW-Authenticate: DPoP challenge.
func TestDPoPKeptWithoutSignature(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	head := enc([]byte(`{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"x","y":"y"}}`))
	claims := enc([]byte(`{"jti":"j-1","htm":"POST","htu":"http://example/mcp","iat":1785229200,"ath":"` + mcp.TokenHash("tok-secret") + `"}`))
	const sig = "c2lnbmF0dXJlLXNlY3JldA"
	proof := head + "." + claims + "." + sig
	got := make(chan http.Header, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		got <- r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("DPoP-Nonce", "n-42")
		w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce", algs="ES256"`)
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"nonce"}}`)
	}))
	defer target.Close()
	p, front, buf := proxyTo(t, target.URL)
	req, _ := http.NewRequest(http.MethodPost, front.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "DPoP tok-secret")
	req.Header.Set("DPoP", proof)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	h := <-got
	if h.Get("DPoP") != proof || h.Get("Authorization") != "DPoP tok-secret" {
		t.Errorf("the server got DPoP %q, Authorization %q; want them untouched", h.Get("DPoP"), h.Get("Authorization"))
	}
	var kept []map[string]string
	for _, r := range buf.records(t) {
		if r.Type == capture.TypeFrame && r.HTTP != nil {
			kept = append(kept, r.HTTP.Headers)
		}
	}
	if len(kept) != 2 {
		t.Fatalf("got %d frames with envelopes, want the request and its answer", len(kept))
	}
	want := map[string]string{"DPoP": head + "." + claims + ".", "Authorization": "DPoP [present] sha256=" + mcp.TokenHash("tok-secret")}
	if diff := cmp.Diff(want, map[string]string{"DPoP": kept[0]["DPoP"], "Authorization": kept[0]["Authorization"]}); diff != "" {
		t.Errorf("kept request headers (-want +got):\n%s", diff)
	}
	if kept[1]["DPoP-Nonce"] != "n-42" || !strings.HasPrefix(kept[1]["WWW-Authenticate"], "DPoP ") {
		t.Errorf("kept answer headers %v, want DPoP-Nonce and the DPoP challenge", kept[1])
	}
	raw := buf.b.String()
	for _, secret := range []string{sig, "tok-secret"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the capture holds %q", secret)
		}
	}
}
