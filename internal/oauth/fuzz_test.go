package oauth

import (
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// FuzzParseChallenges: any header parses without a panic, and what
// parses renders (Challenge.String) to a header that parses back to the
// same challenges.
func FuzzParseChallenges(f *testing.F) {
	for _, s := range []string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
		`Basic realm="x", Bearer error=invalid_token`, `Negotiate abc==, Bearer`, `Bearer realm="a \"q\""`, `, ,`, `Bearer realm=`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		cs, err := ParseChallenges(in)
		if err != nil {
			return
		}
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = c.String()
		}
		again, err := ParseChallenges(strings.Join(parts, ", "))
		if err != nil {
			t.Fatalf("rendered %q does not parse: %v", strings.Join(parts, ", "), err)
		}
		if diff := cmp.Diff(cs, again); diff != "" {
			t.Fatalf("round trip of %q (-first +again):\n%s", in, diff)
		}
	})
}

// FuzzExchangeBodies: any URL and bodies, as every kind of step and
// through Read, give no panic, and no member named like a credential
// reaches the flow: a canary put in each credential member of the JSON
// body never appears in the encoded Auth.
func FuzzExchangeBodies(f *testing.F) {
	f.Add("POST", "https://as.example/token", "grant_type=authorization_code&resource=https%3A%2F%2Frs", `{"access_token":"x","token_type":"Bearer","expires_in":"60"}`)
	f.Add("GET", "https://as.example/.well-known/oauth-authorization-server/t", "", `{"issuer":"https://as.example/t","code_challenge_methods_supported":["S256",1]}`)
	f.Add("GET", "https://rs.example/.well-known/oauth-protected-resource", "", `{"resource":"https://rs.example","authorization_servers":"https://as"}`)
	f.Add("POST", "https://as.example/register", `{"redirect_uris":["http://127.0.0.1/cb"]}`, `{"client_id":"c","client_secret":"s"}`)
	f.Add("GET", "https://as.example/authorize?response_type=code&client_id=c&state=s&code_challenge=x", "", "")
	f.Fuzz(func(t *testing.T, method, u, req, resp string) {
		const canary = "CANARY-7f3e"
		if strings.Contains(method+u+req+resp, canary) {
			return
		}
		if strings.HasPrefix(resp, "{") && strings.HasSuffix(resp, "}") {
			inner := strings.TrimSuffix(resp, "}")
			sep := ","
			if strings.TrimSpace(inner) == "{" {
				sep = ""
			}
			resp = inner + sep + `"client_secret":"` + canary + `","access_token":"` + canary + `","refresh_token":"` + canary + `","id_token":"` + canary + `"}`
		}
		x := store.Exchange{Seq: 1, Time: time.Unix(0, 0), Exchange: &capture.Exchange{Method: method, URL: u, Status: 200, ReqBody: req, RespBody: resp}}
		for _, st := range []Step{resourceStep(&x), serverStep(&x, wellKnown(u)), registrationStep(&x), authorizationStep(&x),
			callbackStep(&x), tokenStep(&x)} {
			if st.Seq != 1 {
				t.Fatalf("step %s lost its seq", st.Kind)
			}
		}
		snap := store.Snapshot{Exchanges: store.Exchanges{x}}
		b, err := json.Marshal(Read(&snap, nil), jsontext.AllowInvalidUTF8(true))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), canary) {
			t.Fatalf("a credential member reached the flow: %s", b)
		}
	})
}
