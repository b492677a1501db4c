package oauth_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
)

// TestDirect: each real client completes the OAuth flow straight against
// the test server, over http and over https with a test CA the client
// trusts through NODE_EXTRA_CA_CERTS, and calls the tool.
func TestDirect(t *testing.T) {
	dir := scripts(t)
	for _, tls := range []bool{false, true} {
		for _, c := range clients() {
			name := c.name + "/http"
			if tls {
				name = c.name + "/https"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv, r := newServer(t, tls)
				got := c.run(t, dir, srv.URL(), r)
				checkFlow(t, srv, got)
			})
		}
	}
}

// newServer starts a correct test server, over https with a fresh CA when
// tls is set, and returns it with the route a direct client takes.
func newServer(t *testing.T, tls bool) (*oauthserver.Server, route) {
	t.Helper()
	var opts oauthserver.Options
	var r route
	if tls {
		ca, err := oauthserver.NewCA()
		if err != nil {
			t.Fatal(err)
		}
		if opts.TLS, err = ca.TLSConfig(); err != nil {
			t.Fatal(err)
		}
		r.caFile = filepath.Join(t.TempDir(), "ca.pem")
		if err := os.WriteFile(r.caFile, ca.CertPEM, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := oauthserver.New(&opts)
	t.Cleanup(srv.Close)
	return srv, r
}

// checkFlow checks what the server saw of one completed flow: the
// protected-resource metadata fetched where the 401 pointed and the
// authorization-server metadata at its RFC 8414 location; one
// registration; every authorization asked S256 with the resource
// parameter; every code redeemed with a verifier and the resource
// parameter; every bearer token passed the audience check; and whoami,
// called once, answered the registered client, as the client printed.
func checkFlow(t *testing.T, srv *oauthserver.Server, toolText string) {
	t.Helper()
	o := srv.Observed()
	if len(o.Registrations) != 1 {
		t.Fatalf("registrations: %+v, want one", o.Registrations)
	}
	id := o.Registrations[0].ClientID
	if want := oauthserver.WhoamiText(id); toolText != want {
		t.Errorf("whoami answered %q, want %q", toolText, want)
	}
	if len(o.ToolCalls) != 1 || o.ToolCalls[0] != id {
		t.Errorf("tool calls: %q, want [%q]", o.ToolCalls, id)
	}
	for _, doc := range []string{srv.ResourceMetadataURL(), srv.AuthMetadataURL()} {
		if !slices.Contains(o.Documents, doc) {
			t.Errorf("the client never fetched %s; documents served: %q", doc, o.Documents)
		}
	}
	if len(o.Authorizations) == 0 {
		t.Error("no authorization request reached the server")
	}
	for _, a := range o.Authorizations {
		if a.CodeChallengeMethod != "S256" || a.Resource != srv.URL() || a.Error != "" {
			t.Errorf("authorization %+v: want S256, resource %s, no error", a, srv.URL())
		}
	}
	codes := 0
	for _, tr := range o.TokenRequests {
		if tr.Error != "" {
			t.Errorf("token request %+v failed", tr)
		}
		if tr.GrantType != "authorization_code" {
			continue
		}
		codes++
		if tr.CodeVerifier == "" || tr.Resource != srv.URL() {
			t.Errorf("token request %+v: want a code_verifier and resource %s", tr, srv.URL())
		}
	}
	if codes != 1 {
		t.Errorf("%d authorization_code token requests, want 1", codes)
	}
	if len(o.AudienceChecks) == 0 {
		t.Error("no bearer token reached the resource server")
	}
	for _, c := range o.AudienceChecks {
		if !c.OK {
			t.Errorf("audience check failed: %+v", c)
		}
	}
}
