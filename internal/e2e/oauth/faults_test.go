package oauth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
)

// TestForwardFaults: the lenient Go client walks each of
// oauthserver.Faults through `mcptrail http --forward`; whatever the
// fault, the capture holds the exchanges the walk made (the protected-
// resource metadata request at least) and none of its secrets. These are
// the captures the oauth rules read; faultCapture makes one.
func TestForwardFaults(t *testing.T) {
	requireForward(t)
	for _, f := range oauthserver.Faults() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			srv, fw := faultCapture(t, f)
			_, recs, _, err := capture.ReadFile(fw.capture)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range recs {
				if r.Type == capture.TypeExchange {
					n++
				}
			}
			if n == 0 {
				t.Error("the capture holds no exchange record")
			}
			checkNoSecrets(t, fw, srv.Observed().Secrets())
			checkJudged(t, fw, f.Name)
		})
	}
}

// faultRules is what the oauth rules must find in each fault's real
// capture: the rule ids of every finding, sorted; nil means none at all.
func faultRules() map[string][]string {
	return map[string][]string{
		"clean":                         nil,
		"resource-mismatch":             {"oauth-resource-mismatch"},
		"no-resource-metadata-param":    nil, // the metadata is still found at the well-known location
		"no-resource-metadata":          {"oauth-metadata-missing"},
		"issuer-mismatch":               {"oauth-issuer-mismatch"},
		"iss-mismatch":                  {"oauth-issuer-mismatch"},
		"pkce-plain":                    {"oauth-pkce-not-s256"},
		"path-issuer":                   nil,
		"wrong-well-known-path":         {"oauth-metadata-wrong-path"},
		"token-in-query":                {"oauth-token-in-query"},
		"token-in-query-refused":        {"oauth-token-in-query"},
		"audience-rejected":             {"http-error-status", "oauth-token-rejected"},
		"no-resource-parameter":         {"oauth-resource-parameter-missing"},
		"no-resource-parameter-refused": {"oauth-resource-parameter-missing"},
	}
}

// checkJudged exports the fault's capture as JSON and requires exactly the
// findings faultRules names for it: the oauth rules catch each fault on
// real traffic, and the clean flow raises nothing.
func checkJudged(t *testing.T, fw *forwardTap, fault string) {
	t.Helper()
	want, ok := faultRules()[fault]
	if !ok {
		t.Fatalf("faultRules has no entry for %s", fault)
	}
	var doc struct {
		Findings []struct{ Rule, Message string }
	}
	out := fw.run(t, "export", "-T", "json", fw.capture)
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("export -T json: %v", err)
	}
	var got []string
	for _, f := range doc.Findings {
		if !slices.Contains(got, f.Rule) {
			got = append(got, f.Rule)
		}
	}
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Errorf("findings %v, want the rules %v:\n%+v", got, want, doc.Findings)
	}
}

// faultCapture walks f with the Go client through a fresh `mcptrail http
// --forward` and returns the server and the stopped tap, whose capture
// holds the walk.
func faultCapture(t *testing.T, f oauthserver.Fault) (*oauthserver.Server, *forwardTap) {
	t.Helper()
	srv := oauthserver.New(&f.Options)
	t.Cleanup(srv.Close)
	fw := startForward(t, srv, "")
	proxy, err := url.Parse(fw.proxy)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Client
	c.HTTP = &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := c.Run(ctx, srv.URL())
	switch {
	case f.Completes && err != nil:
		t.Fatalf("walking %s through the proxy: %v", f.Name, err)
	case !f.Completes && err == nil:
		t.Fatalf("walking %s through the proxy completed (%q); want it stopped", f.Name, tr.Tool)
	}
	fw.stop(t)
	return srv, fw
}
