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
