package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// oauthSessions reads the OAuth corpus captures (internal/corpus writes
// them from its authFlow table) as sessions, by name: "oauth-clean" and
// one named after each oauth rule it raises. A capture that cannot be
// read is left out, which TestEveryRuleIsRaised then reports.
func oauthSessions() map[string][]step {
	paths, _ := filepath.Glob("../../testdata/oauth/*.capture.jsonl")
	out := map[string][]step{}
	for _, p := range paths {
		hdr, recs, _, err := capture.ReadFile(p)
		if err != nil {
			continue
		}
		var steps []step
		if hdr != nil {
			// Its own header: a reverse-proxy capture names its target.
			steps = append(steps, step{rec: hdr})
		}
		for i := range recs {
			steps = append(steps, step{rec: &recs[i]})
		}
		out[strings.TrimSuffix(filepath.Base(p), ".capture.jsonl")] = steps
	}
	return out
}

// cleanFlow reports whether an OAuth capture is one of the clean flows
// (Bearer, DPoP, and with a consistent server card), which raise no rule.
func cleanFlow(name string) bool {
	return name == "oauth-clean" || name == "oauth-dpop-clean" || name == "oauth-card-consistent"
}

// TestOAuthCleanFlowIsQuiet: the clean flow raises no oauth finding, and
// each rule's capture raises that rule and no other oauth rule but the
// ones its expectation names (issuer and PKCE captures raise theirs twice).
func TestOAuthCleanFlowIsQuiet(t *testing.T) {
	t.Parallel()
	reg := allOn(t)
	sessions := oauthSessions()
	if len(sessions) < 10 {
		t.Fatalf("read %d OAuth captures, want 10", len(sessions))
	}
	for name, steps := range sessions {
		var oauthRules []string
		for _, id := range raisedBy(t, reg, steps) {
			id, _, _ = strings.Cut(id, "@")
			if r, _ := reg.Rule(id); r.Category == finding.OAuth {
				oauthRules = append(oauthRules, id)
			}
		}
		for _, id := range oauthRules {
			if id != name {
				t.Errorf("%s raised %s", name, id)
			}
		}
		if r, _ := reg.Rule(name); r.Category == finding.OAuth && len(oauthRules) == 0 {
			t.Errorf("%s raised no oauth rule", name)
		}
	}
}

// aroundProxySession is a reverse-proxy session (its header names the
// target) whose only OAuth step is a 401 naming absolute resource_metadata
// on the target's own origin: the client fetched it around the proxy.
func aroundProxySession(metadata string) []step {
	hdr := capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: "test", Transport: "http", Label: "127.0.0.1", Target: "http://127.0.0.1:9/mcp"}
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	return []step{
		{rec: &hdr},
		post("x1", init, map[string]string{"Content-Type": "application/json"}),
		answer("x1", 401, `{"error":"invalid_token"}`, map[string]string{"Content-Type": "application/json",
			"WWW-Authenticate": `Bearer error="invalid_token", resource_metadata="` + metadata + `"`}),
		{rec: &capture.Record{Type: capture.TypeEnd}},
	}
}

// TestOAuthMetadataAroundProxy: the finding is raised for absolute
// resource_metadata on the target's origin, and not for a relative one or
// one on another origin (which the client fetches through the proxy, or
// which is not the proxy's doing).
func TestOAuthMetadataAroundProxy(t *testing.T) {
	t.Parallel()
	reg := allOn(t)
	for _, tc := range []struct {
		metadata string
		want     bool
	}{
		{"http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", true},
		{"/.well-known/oauth-protected-resource/mcp", false},
		{"https://auth.example/.well-known/oauth-protected-resource/mcp", false},
	} {
		got := false
		for _, id := range raisedBy(t, reg, aroundProxySession(tc.metadata)) {
			if strings.HasPrefix(id, finding.OAuthMetadataAroundProxy+"@") {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("resource_metadata %s: raised %v, want %v", tc.metadata, got, tc.want)
		}
	}
}
