package htmlexport

import (
	"os"
	"strings"
	"testing"
)

// The page of a forward-proxy capture has an authorization section, one
// row per step, whose values from the capture are escaped (a hostile
// resource in the metadata cannot open a tag); a capture without a flow
// has no section.
func TestAuthSection(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../../testdata/oauth/oauth-clean.capture.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := render(t, data)
	if !strings.Contains(page, `<section id="auth">`) || strings.Count(page, `<tr class="auth-step`) != 8 {
		t.Errorf("want an authorization section of 8 steps:\n%s", section(page))
	}
	for _, want := range []string{`<td>token</td>`, `grant_type=authorization_code resource=[https://rs.example.com/mcp]`, `<td class="url">GET https://as.example.com/tenant1/authorize?…</td>`} {
		if !strings.Contains(section(page), want) {
			t.Errorf("the section lacks %q:\n%s", want, section(page))
		}
	}
	hostile := strings.Replace(string(data), `\"resource\":\"https://rs.example.com/mcp\"`, `\"resource\":\"<img src=x onerror=alert(1)>\"`, 1)
	if hostile == string(data) {
		t.Fatal("the replacement did not apply")
	}
	page, _ = render(t, []byte(hostile))
	if s := section(page); strings.Contains(s, "<img") || !strings.Contains(s, "&lt;img") {
		t.Errorf("the hostile resource is not escaped:\n%s", s)
	}
	plain := transcriptCapture(t, "../../../testdata/transcripts/errors.transcript.jsonl", "errors")
	if page, _ := render(t, plain); strings.Contains(page, `id="auth"`) {
		t.Error("a capture without a flow has an authorization section")
	}
}

func section(page string) string {
	i := strings.Index(page, `<section id="auth">`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</section>")
	return page[i : i+j]
}

// The page of a DPoP-bound flow lists its proofs in the authorization
// section, claims only: the capture holds no signature and no token.
func TestAuthSectionDPoP(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../../testdata/oauth/oauth-dpop-clean.capture.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := render(t, data)
	s := section(page)
	for _, want := range []string{`<h3>DPoP proofs</h3>`, `<td>jti-token-1</td>`, `<td>jti-mcp-1</td>`, `<td>match</td>`, `scheme=DPoP`, `dpop_nonce=nonce-rs-1`} {
		if !strings.Contains(s, want) {
			t.Errorf("the section lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(page, "at-dpop-1") {
		t.Error("the page holds the access token")
	}
}
