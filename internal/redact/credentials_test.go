package redact_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/redact"
)

// canary is a credential value that must not survive redaction.
const canary = "CANARY-7f3a9c"

// TestCredentialBody: every credential name is redacted in JSON bodies (at any
// depth), form bodies, URLs in text; other values are kept. RFC 7591/7592
// registration carries registration_access_token, initial_access_token and
// software_statement.
func TestCredentialBody(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"access_token", "refresh_token", "id_token", "code", "code_verifier", "client_secret", "assertion",
		"client_assertion", "subject_token", "actor_token", "registration_access_token", "initial_access_token", "software_statement"} {
		for _, tt := range []struct{ kind, body string }{
			{"json", `{"` + name + `":"` + canary + `","keep":"k"}`},
			{"json nested", `{"a":[{"b":{"` + name + `":{"x":"` + canary + `"}}}],"keep":"k"}`},
			{"form", "keep=k&" + name + "=" + canary + "&x=1"},
			{"form first", name + "=" + canary + "&keep=k"},
			{"html", `<a href="http://h/cb?keep=k&amp;` + name + `=` + canary + `">Found</a>`},
			{"json url", `{"keep":"k","u":"http://h/cb?` + name + `=` + canary + `"}`},
		} {
			got := redact.CredentialBody(tt.body)
			if strings.Contains(got, canary) || !strings.Contains(got, "k") || !strings.Contains(got, "[REDACTED]") {
				t.Errorf("%s %s: %s", name, tt.kind, got)
			}
		}
		u, _ := url.Parse("https://h/cb?keep=k&" + name + "=" + canary + "#" + name + "=" + canary)
		if got := redact.CredentialURL(u); strings.Contains(got, canary) || !strings.Contains(got, "keep=k") {
			t.Errorf("%s in a URL: %s", name, got)
		}
	}
	for _, keep := range []string{`{"client_id":"c1","codes":"x","code_challenge":"abc","registration_client_uri":"https://as/reg/c1"}`,
		"grant_type=x&code_challenge=abc", "plain text, code = x"} {
		if got := redact.CredentialBody(keep); got != keep {
			t.Errorf("CredentialBody(%s) = %s, want it unchanged", keep, got)
		}
	}
}

// TestCredentialPlainChallenge: a PKCE code_challenge sent with the plain
// method (named, or by default) is the code verifier itself, so an
// authorization URL keeps it only with S256.
func TestCredentialPlainChallenge(t *testing.T) {
	t.Parallel()
	for query, want := range map[string]string{
		"code_challenge=" + canary + "&code_challenge_method=plain&state=s": "code_challenge=[REDACTED]&code_challenge_method=plain&state=s",
		"state=s&code_challenge=" + canary:                                  "state=s&code_challenge=[REDACTED]",
		"code_challenge=abc&code_challenge_method=S256":                     "code_challenge=abc&code_challenge_method=S256",
	} {
		u, _ := url.Parse("https://as/authorize?" + query)
		if got := redact.CredentialURL(u); got != "https://as/authorize?"+want {
			t.Errorf("CredentialURL(?%s) = %s, want ?%s", query, got, want)
		}
	}
}

// FuzzCredentialBody: whatever surrounds it, a credential's value never
// survives redaction of a form pair, a JSON member or a URL query; any
// body is handled without a panic, and a valid JSON body stays valid.
func FuzzCredentialBody(f *testing.F) {
	for _, s := range []string{"", "a=b", `{"x":[1,{"y":"z"}]}`, "<a href=\"http://h/?x=1\">", "\xff\xfe", `{"code":{"a":[`} {
		f.Add(s, s, uint8(0))
	}
	names := []string{"access_token", "refresh_token", "id_token", "code", "code_verifier", "client_secret", "assertion"}
	const secret = "SECRETzz9"
	f.Fuzz(func(t *testing.T, pad, body string, which uint8) {
		name := names[int(which)%len(names)]
		out := redact.CredentialBody(body)
		if json.Valid([]byte(body)) && !json.Valid([]byte(out)) {
			t.Fatalf("valid JSON %q redacted into invalid %q", body, out)
		}
		if strings.Contains(pad, secret) {
			return
		}
		form := pad + "&" + name + "=" + secret
		if got := redact.CredentialBody(form); strings.Contains(got, secret) {
			t.Fatalf("form %q kept the secret: %q", form, got)
		}
		doc, err := json.Marshal(map[string]any{"pad": pad, "n": map[string]string{name: secret}})
		if err != nil {
			t.Fatal(err)
		}
		if got := redact.CredentialBody(string(doc)); strings.Contains(got, secret) || !json.Valid([]byte(got)) {
			t.Fatalf("JSON %s redacted into %s", doc, got)
		}
		u := &url.URL{Scheme: "https", Host: "h", Path: "/cb", RawQuery: url.Values{"p": {pad}, name: {secret}}.Encode()}
		if got := redact.CredentialURL(u); strings.Contains(got, secret) {
			t.Fatalf("URL %s kept the secret: %s", u, got)
		}
	})
}
