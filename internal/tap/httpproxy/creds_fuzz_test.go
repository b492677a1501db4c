package httpproxy

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// FuzzRedactBody: whatever surrounds it, a credential's value never
// survives redaction of a form pair, a JSON member or a URL query; any
// body is handled without a panic, and a valid JSON body stays valid.
func FuzzRedactBody(f *testing.F) {
	for _, s := range []string{"", "a=b", `{"x":[1,{"y":"z"}]}`, "<a href=\"http://h/?x=1\">", "\xff\xfe", `{"code":{"a":[`} {
		f.Add(s, s, uint8(0))
	}
	names := []string{"access_token", "refresh_token", "id_token", "code", "code_verifier", "client_secret", "assertion"}
	const secret = "SECRETzz9"
	f.Fuzz(func(t *testing.T, pad, body string, which uint8) {
		keys := credentialKeys()
		name := names[int(which)%len(names)]
		out := redactBody(body, keys)
		if json.Valid([]byte(body)) && !json.Valid([]byte(out)) {
			t.Fatalf("valid JSON %q redacted into invalid %q", body, out)
		}
		if strings.Contains(pad, secret) {
			return
		}
		form := pad + "&" + name + "=" + secret
		if got := redactBody(form, keys); strings.Contains(got, secret) {
			t.Fatalf("form %q kept the secret: %q", form, got)
		}
		doc, err := json.Marshal(map[string]any{"pad": pad, "n": map[string]string{name: secret}})
		if err != nil {
			t.Fatal(err)
		}
		if got := redactBody(string(doc), keys); strings.Contains(got, secret) || !json.Valid([]byte(got)) {
			t.Fatalf("JSON %s redacted into %s", doc, got)
		}
		u := &url.URL{Scheme: "https", Host: "h", Path: "/cb", RawQuery: url.Values{"p": {pad}, name: {secret}}.Encode()}
		if got := redactURL(u, keys); strings.Contains(got, secret) {
			t.Fatalf("URL %s kept the secret: %s", u, got)
		}
	})
}

// FuzzLooksJSONRPC: any body start is classified without a panic, only a
// JSON object or array is ever taken for JSON-RPC, and a body that opens
// with a "jsonrpc" member always is, however it goes on.
func FuzzLooksJSONRPC(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"method":"x"}]`, `grant_type=x`, `{"a":`, "\xff{"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if s := strings.TrimLeft(string(b), " \t\r\n"); looksJSONRPC(b) && (s == "" || s[0] != '{' && s[0] != '[') {
			t.Fatalf("%q, not an object or array, taken for JSON-RPC", b)
		}
		if !looksJSONRPC(append([]byte(`{"jsonrpc":"2.0",`), b...)) {
			t.Fatalf("a body opening with a jsonrpc member was not taken for JSON-RPC: %q", b)
		}
	})
}
