package oauthserver_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
)

// TestKnobs walks each of Faults with the lenient Go client and checks
// the server did what the knob says.
func TestKnobs(t *testing.T) {
	t.Parallel()
	checks := knobChecks()
	for _, f := range oauthserver.Faults() {
		check, ok := checks[f.Name]
		if !ok {
			t.Errorf("fault %s has no check here", f.Name)
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			walkFault(t, f, check)
		})
	}
}

// knobCheck checks one fault's walk beyond its outcome.
type knobCheck func(t *testing.T, s *oauthserver.Server, tr *oauthserver.Trace, o oauthserver.Observed)

// knobChecks holds a check per fault name; nil when the outcome says all.
func knobChecks() map[string]knobCheck {
	return map[string]knobCheck{
		"clean": func(t *testing.T, s *oauthserver.Server, tr *oauthserver.Trace, o oauthserver.Observed) {
			want := `Bearer resource_metadata="` + s.ResourceMetadataURL() + `", scope="` + oauthserver.Scope + `"`
			if tr.Challenge != want || tr.Iss != s.Issuer() {
				t.Errorf("challenge %q iss %q, want %q and %q", tr.Challenge, tr.Iss, want, s.Issuer())
			}
			got := []string{o.Authorizations[0].CodeChallengeMethod, o.Authorizations[0].Resource, o.TokenRequests[0].Resource, o.TokenRequests[0].ClientAuth}
			if d := cmp.Diff([]string{"S256", s.URL(), s.URL(), "client_secret_post"}, got); d != "" {
				t.Errorf("authorization and token request (-want +got):\n%s", d)
			}
		},
		"resource-mismatch": func(t *testing.T, s *oauthserver.Server, _ *oauthserver.Trace, _ oauthserver.Observed) {
			if got := field(t, s.ResourceMetadataURL(), "resource"); got == s.URL() {
				t.Errorf("metadata resource %q is the server's URL", got)
			}
		},
		"no-resource-metadata-param": func(t *testing.T, _ *oauthserver.Server, tr *oauthserver.Trace, _ oauthserver.Observed) {
			if strings.Contains(tr.Challenge, "resource_metadata") {
				t.Errorf("challenge %q names resource_metadata", tr.Challenge)
			}
		},
		"no-resource-metadata": nil,
		"issuer-mismatch": func(t *testing.T, s *oauthserver.Server, _ *oauthserver.Trace, _ oauthserver.Observed) {
			if got := field(t, s.AuthMetadataURL(), "issuer"); got == s.Issuer() {
				t.Errorf("metadata issuer %q is the issuer", got)
			}
		},
		"iss-mismatch": func(t *testing.T, s *oauthserver.Server, tr *oauthserver.Trace, _ oauthserver.Observed) {
			if tr.Iss == s.Issuer() || tr.Iss == "" {
				t.Errorf("iss %q, want another than %q", tr.Iss, s.Issuer())
			}
		},
		"pkce-plain": func(t *testing.T, _ *oauthserver.Server, _ *oauthserver.Trace, o oauthserver.Observed) {
			if m := o.Authorizations[0].CodeChallengeMethod; m != "plain" {
				t.Errorf("challenge method %q, want plain", m)
			}
		},
		"path-issuer": func(t *testing.T, s *oauthserver.Server, _ *oauthserver.Trace, _ oauthserver.Observed) {
			if want := s.AuthOrigin() + "/.well-known/oauth-authorization-server/tenant1"; s.AuthMetadataURL() != want {
				t.Errorf("metadata at %s, want %s", s.AuthMetadataURL(), want)
			}
		},
		"wrong-well-known-path": func(t *testing.T, s *oauthserver.Server, _ *oauthserver.Trace, _ oauthserver.Observed) {
			if code := status(t, s.AuthOrigin()+"/.well-known/oauth-authorization-server/tenant1"); code != http.StatusNotFound {
				t.Errorf("RFC 8414 location answered %d, want 404", code)
			}
		},
		"token-in-query":         nil,
		"token-in-query-refused": nil,
		"audience-rejected": func(t *testing.T, _ *oauthserver.Server, _ *oauthserver.Trace, o oauthserver.Observed) {
			if len(o.AudienceChecks) == 0 || o.AudienceChecks[0].OK {
				t.Errorf("audience checks %+v, want a failed one", o.AudienceChecks)
			}
		},
		"no-resource-parameter": func(t *testing.T, _ *oauthserver.Server, _ *oauthserver.Trace, o oauthserver.Observed) {
			if r := o.TokenRequests[0].Resource; r != "" {
				t.Errorf("token request resource %q, want none", r)
			}
		},
		"no-resource-parameter-refused": func(t *testing.T, _ *oauthserver.Server, _ *oauthserver.Trace, o oauthserver.Observed) {
			if e := o.TokenRequests[0].Error; e != "invalid_target" {
				t.Errorf("token request error %q, want invalid_target", e)
			}
		},
	}
}

// walkFault walks f and checks its outcome, then check.
func walkFault(t *testing.T, f oauthserver.Fault, check knobCheck) {
	s := oauthserver.New(&f.Options)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr, err := f.Client.Run(ctx, s.URL())
	o := s.Observed()
	switch {
	case !f.Completes && err == nil:
		t.Fatalf("the walk completed (%q); want it stopped", tr.Tool)
	case f.Completes && err != nil:
		t.Fatalf("walk: %v", err)
	case f.Completes && tr.Tool != oauthserver.WhoamiText(tr.ClientID):
		t.Errorf("whoami answered %q for client %q", tr.Tool, tr.ClientID)
	}
	if check != nil {
		if len(o.Authorizations) == 0 || len(o.TokenRequests) == 0 {
			t.Fatalf("the walk did not reach the token endpoint: %v", err)
		}
		check(t, s, tr, o)
	}
	checkIssued(t, o)
}

// TestTLS: over https with a test CA, the Go client trusting it walks the
// whole flow.
func TestTLS(t *testing.T) {
	t.Parallel()
	ca, err := oauthserver.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ca.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	s := oauthserver.New(&oauthserver.Options{TLS: cfg})
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "https://") || !strings.HasPrefix(s.Issuer(), "https://") {
		t.Fatalf("URL %s issuer %s, want https", s.URL(), s.Issuer())
	}
	tp := http.DefaultTransport.(*http.Transport).Clone()
	tp.TLSClientConfig = &tls.Config{RootCAs: ca.Pool()}
	c := oauthserver.Client{HTTP: &http.Client{Transport: tp}}
	tr, err := c.Run(context.Background(), s.URL())
	if err != nil {
		t.Fatal(err)
	}
	if tr.Tool != oauthserver.WhoamiText(tr.ClientID) {
		t.Errorf("whoami answered %q", tr.Tool)
	}
}

// checkIssued checks every issued secret carries the marker.
func checkIssued(t *testing.T, o oauthserver.Observed) {
	t.Helper()
	for _, s := range o.Issued {
		if !strings.HasPrefix(s, oauthserver.Marker) {
			t.Errorf("issued %q without the marker", s)
		}
	}
}

// field fetches the JSON document at u and returns its string field name.
func field(t *testing.T, u, name string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	s, _ := doc[name].(string)
	return s
}

// status returns the status GET u answers.
func status(t *testing.T, u string) int {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
