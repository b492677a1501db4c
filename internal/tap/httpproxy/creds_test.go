package httpproxy

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestRedactBody: every credential name is redacted in JSON bodies (at any
// depth), form bodies, URLs in text; other values are kept. RFC 7591/7592
// registration carries registration_access_token, initial_access_token and
// software_statement.
func TestRedactBody(t *testing.T) {
	t.Parallel()
	keys := credentialKeys()
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
			got := redactBody(tt.body, keys)
			if strings.Contains(got, canary) || !strings.Contains(got, "k") || !strings.Contains(got, "[REDACTED]") {
				t.Errorf("%s %s: %s", name, tt.kind, got)
			}
		}
		u, _ := url.Parse("https://h/cb?keep=k&" + name + "=" + canary + "#" + name + "=" + canary)
		if got := redactURL(u, keys); strings.Contains(got, canary) || !strings.Contains(got, "keep=k") {
			t.Errorf("%s in a URL: %s", name, got)
		}
	}
	for _, keep := range []string{`{"client_id":"c1","codes":"x","code_challenge":"abc","registration_client_uri":"https://as/reg/c1"}`,
		"grant_type=x&code_challenge=abc", "plain text, code = x"} {
		if got := redactBody(keep, keys); got != keep {
			t.Errorf("redactBody(%s) = %s, want it unchanged", keep, got)
		}
	}
}

// TestRedactPlainChallenge: a PKCE code_challenge sent with the plain
// method (named, or by default) is the code verifier itself, so an
// authorization URL keeps it only with S256.
func TestRedactPlainChallenge(t *testing.T) {
	t.Parallel()
	for query, want := range map[string]string{
		"code_challenge=" + canary + "&code_challenge_method=plain&state=s": "code_challenge=[REDACTED]&code_challenge_method=plain&state=s",
		"state=s&code_challenge=" + canary:                                  "state=s&code_challenge=[REDACTED]",
		"code_challenge=abc&code_challenge_method=S256":                     "code_challenge=abc&code_challenge_method=S256",
	} {
		u, _ := url.Parse("https://as/authorize?" + query)
		if got := redactURL(u, credentialKeys()); got != "https://as/authorize?"+want {
			t.Errorf("redactURL(?%s) = %s, want ?%s", query, got, want)
		}
	}
}

func TestLooksJSONRPC(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:  true,
		`{"id":1,"method":"ping"}`:                  true,
		`[{"jsonrpc":"2.0","method":"x"}]`:          true,
		`{"params":{"a":1},"jsonrpc":"2.0","id":1`:  true, // cut short, the member seen
		`{"redirect_uris":["x"],"client_name":"c"}`: false,
		`grant_type=authorization_code&code=x`:      false,
		`{"a":{"jsonrpc":"2.0"}}`:                   false,
		``:                                          false,
	} {
		if got := looksJSONRPC([]byte(body)); got != want {
			t.Errorf("looksJSONRPC(%s) = %v, want %v", body, got, want)
		}
	}
}

func TestStartMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method string
		header map[string]string
		body   bool
		want   mode
	}{
		{"GET", map[string]string{"Accept": "text/event-stream"}, false, modeMCP},
		{"GET", map[string]string{"Accept": "application/json", "MCP-Protocol-Version": "2025-11-25"}, false, modeExchange},
		{"DELETE", map[string]string{"Mcp-Session-Id": "s"}, false, modeMCP},
		{"POST", map[string]string{"Mcp-Session-Id": "s"}, true, modeMCP},
		{"POST", map[string]string{"Content-Type": "application/json"}, true, modeUndecided},
		{"GET", nil, false, modeExchange},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest(tt.method, "http://h/x", nil)
		for k, v := range tt.header {
			r.Header.Set(k, v)
		}
		if got := startMode(r, tt.body); got != tt.want {
			t.Errorf("%s %v body %v: mode %d, want %d", tt.method, tt.header, tt.body, got, tt.want)
		}
	}
}
