package rules

import (
	"net/url"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/store"
)

// OAuth checks the authorization flow in front of a remote server (the
// oauth category): it tracks the MCP exchanges' envelopes frame by frame
// (oauth.Tracker) and judges the flows oauth.Read finds in each snapshot.
// It belongs to one store.
type OAuth struct {
	t oauth.Tracker
}

// NewOAuth returns the OAuth rules of one session.
func NewOAuth() *OAuth { return &OAuth{} }

// Auth returns the authorization flows of s as the rules read them
// (oauth.Read with the rules' tracker), so that the session loader reads
// the flows once, from the one tracker of the session.
func (o *OAuth) Auth(s *store.Snapshot) oauth.Auth { return oauth.Read(s, &o.t) }

// Check implements store.Check.
func (o *OAuth) Check(f *store.Frame, raise func(finding.Finding)) { o.t.Check(f, raise) }

// Finish implements store.Finisher: it raises the oauth findings of the
// snapshot's flows.
func (o *OAuth) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	a := oauth.Read(s, &o.t)
	for _, q := range a.QueryTokens {
		raiseAt(raise, q.Line, finding.New(finding.OAuthTokenInQuery, q.Seq, "access_token in the query of %s", q.URL))
	}
	// Without exchange records the capture could not see the metadata
	// fetches (a reverse proxy before issue 14, or a client that went
	// around it): a 401 alone proves nothing missing.
	sawFetches := len(s.Exchanges) > 0
	for i := range a.Flows {
		checkFlow(&a.Flows[i], sawFetches, raise)
		aroundProxy(&a.Flows[i], s.Session.Target, raise)
	}
	registrationDeprecated(s, a.Flows, raise)
	dpopFindings(a.Proofs, raise)
}

// raiseAt raises f anchored to a line of the capture.
func raiseAt(raise func(finding.Finding), line int, f finding.Finding) {
	f.Line = line
	raise(f)
}

// checkFlow runs the per-flow rules.
func checkFlow(f *oauth.Flow, sawFetches bool, raise func(finding.Finding)) {
	used := usedURL(f)
	listed := listedIssuers(f)
	if sawFetches {
		metaMissing(f, raise)
	}
	insecure := map[string]bool{}
	tokenIssued, issChecked := false, false
	for i := range f.Steps {
		st := &f.Steps[i]
		at := func(f finding.Finding) { raiseAt(raise, st.Line, f) }
		switch st.Kind {
		case oauth.StepResourceMeta:
			if r := st.Resource.Resource; st.OK && used != "" && (r == "" || !oauth.ResourceCovers(r, used)) {
				at(finding.New(finding.OAuthResourceMismatch, st.Seq, "protected-resource metadata %s names resource %q; the client used %s", st.URL, r, used))
			}
		case oauth.StepServerMeta:
			serverRules(st, listed, insecure, at)
		case oauth.StepAuthorization, oauth.StepRegistration, oauth.StepToken, oauth.StepTokenExchange, oauth.StepClientCredentials:
			endpointInsecure(st.Seq, st.URL, st.Kind+" endpoint", insecure, at)
		}
		switch st.Kind {
		case oauth.StepAuthorization:
			if a := st.Authorization; !a.CodeChallenge || a.CodeChallengeMethod != "S256" {
				at(finding.New(finding.OAuthPKCENotS256, st.Seq, "authorization request uses %s", pkceDescription(a)))
			}
			issChecked = responseIss(st.Seq, st.Authorization.ResponseIss, f.Issuer, issChecked, at)
		case oauth.StepCallback:
			issChecked = responseIss(st.Seq, st.Callback.Iss, f.Issuer, issChecked, at)
		case oauth.StepToken, oauth.StepTokenExchange, oauth.StepClientCredentials:
			if len(st.Token.Resource) == 0 {
				at(finding.New(finding.OAuthResourceParamMiss, st.Seq, "token request (grant_type %s) to %s has no resource parameter", orNone(st.Token.GrantType), st.URL))
			}
			tokenIssued = st.OK
		case oauth.StepBearer:
			if tokenIssued && (st.Status == 401 || st.Status == 403) {
				at(finding.New(finding.OAuthTokenRejected, st.Seq, "the first %s with the token issued before it was answered HTTP %d%s", orNone(st.Bearer.MCPMethod), st.Status, challengeText(st)))
			}
			tokenIssued = false
		}
	}
	wrongPath(f, listed, raise)
}

// responseIss raises oauth-issuer-mismatch for an authorization
// response whose iss is not the flow's issuer, once a flow (the redirect
// and the callback carry the same response); it reports whether the flow's
// response was checked.
func responseIss(seq uint64, iss, issuer string, checked bool, at func(finding.Finding)) bool {
	if checked || iss == "" {
		return checked
	}
	if issuer != "" && iss != issuer {
		at(finding.New(finding.OAuthIssuerMismatch, seq, "the authorization response's iss %q is not the issuer %q", iss, issuer))
	}
	return true
}

// serverRules checks one authorization-server metadata fetch.
func serverRules(st *oauth.Step, listed []string, insecure map[string]bool, at func(finding.Finding)) {
	m := st.Server
	if !st.OK {
		return
	}
	want, exact := m.FetchedFor, false
	if i := slices.IndexFunc(listed, func(l string) bool { return strings.TrimSuffix(l, "/") == strings.TrimSuffix(m.FetchedFor, "/") }); i >= 0 {
		want, exact = listed[i], true
	}
	_, misplaced := oauth.WrongMetadataPath(st.URL, m.Issuer)
	switch {
	case misplaced && slices.Contains(listed, m.Issuer):
		// the right document at the wrong place: oauth-metadata-wrong-path
	case m.Issuer == "":
		at(finding.New(finding.OAuthIssuerMismatch, st.Seq, "authorization-server metadata %s has no issuer; it was fetched for %q", st.URL, want))
	case exact && m.Issuer != want, !exact && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(want, "/"):
		at(finding.New(finding.OAuthIssuerMismatch, st.Seq, "authorization-server metadata %s has issuer %q; it was fetched for %q", st.URL, m.Issuer, want))
	}
	if !slices.Contains(m.CodeChallengeMethods, "S256") {
		at(finding.New(finding.OAuthPKCENotS256, st.Seq, "authorization-server metadata %s advertises code_challenge_methods_supported %s", st.URL, listText(m.CodeChallengeMethods)))
	}
	for _, e := range []struct{ name, url string }{{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint}, {"registration_endpoint", m.RegistrationEndpoint}} {
		endpointInsecure(st.Seq, e.url, e.name, insecure, at)
	}
}

func endpointInsecure(seq uint64, u, name string, seen map[string]bool, at func(finding.Finding)) {
	key := strings.SplitN(u, "?", 2)[0]
	if u == "" || seen[key] || !oauth.Insecure(u) {
		return
	}
	seen[key] = true
	at(finding.New(finding.OAuthEndpointInsecure, seq, "%s %s is neither https nor loopback", name, key))
}

// metaMissing raises once per flow whose 401 named no resource_metadata
// and which fetched no protected-resource metadata successfully.
func metaMissing(f *oauth.Flow, raise func(finding.Finding)) {
	if slices.ContainsFunc(f.Steps, func(s oauth.Step) bool { return s.Kind == oauth.StepResourceMeta && s.OK }) {
		return
	}
	for _, st := range f.Steps {
		if st.Status == 401 && st.Challenge != nil && st.Challenge.ResourceMetadata == "" {
			raiseAt(raise, st.Line, finding.New(finding.OAuthMetadataMissing, st.Seq,
				"HTTP 401 to %s names no resource_metadata, and no protected-resource metadata was found at the well-known locations", st.URL))
			return
		}
	}
}

// wrongPath raises for metadata of a path-bearing issuer served at a
// location RFC 8414 (or OIDC discovery) does not form for it.
func wrongPath(f *oauth.Flow, listed []string, raise func(finding.Finding)) {
	// The issuers the resource metadata listed are the ones the client
	// looked for; a document naming another is an issuer mismatch, not a
	// misplaced document. Without that list, each document's own issuer.
	issuers := slices.Clone(listed)
	for _, st := range f.Steps {
		if len(listed) == 0 && st.Kind == oauth.StepServerMeta && st.OK && st.Server.Issuer != "" {
			issuers = append(issuers, st.Server.Issuer)
		}
	}
	seen := map[string]bool{}
	for _, st := range f.Steps {
		if st.Kind != oauth.StepServerMeta || !st.OK || seen[st.URL] {
			continue
		}
		for _, iss := range issuers {
			if want, ok := oauth.WrongMetadataPath(st.URL, iss); ok {
				seen[st.URL] = true
				raiseAt(raise, st.Line, finding.New(finding.OAuthMetadataWrongPath, st.Seq,
					"metadata for issuer %q served at %s; RFC 8414 forms %s", iss, st.URL, want))
				break
			}
		}
	}
}

// aroundProxy raises, once per flow of a reverse-proxy session (target
// set), for a 401 whose resource_metadata is an absolute URL on the
// target's origin when the flow fetched no protected-resource metadata
// through the proxy: the client went to the target for it, around the
// proxy, and refuses the resource it found there.
func aroundProxy(f *oauth.Flow, target string, raise func(finding.Finding)) {
	t, err := url.Parse(target)
	if target == "" || err != nil || t.Host == "" {
		return
	}
	if slices.ContainsFunc(f.Steps, func(s oauth.Step) bool { return s.Kind == oauth.StepResourceMeta }) {
		return
	}
	for _, st := range f.Steps {
		if st.Status != 401 || st.Challenge == nil || st.Challenge.ResourceMetadata == "" {
			continue
		}
		m, err := url.Parse(st.Challenge.ResourceMetadata)
		if err != nil || !m.IsAbs() || !strings.EqualFold(m.Scheme, t.Scheme) || !strings.EqualFold(m.Host, t.Host) {
			continue
		}
		raiseAt(raise, st.Line, finding.New(finding.OAuthMetadataAroundProxy, st.Seq,
			"HTTP 401 names resource_metadata %s on the target's own origin: the client fetches it there, around the proxy, "+
				"and finds a resource that is not the proxy's URL; run mcptrail http --forward instead", st.Challenge.ResourceMetadata))
		return
	}
}

// usedURL is the MCP URL the client used in the flow, "" when none was seen.
func usedURL(f *oauth.Flow) string {
	for _, st := range f.Steps {
		if st.Kind == oauth.StepChallenge || st.Kind == oauth.StepBearer {
			return st.URL
		}
	}
	return ""
}

// listedIssuers returns the authorization servers the flow's resource
// metadata listed.
func listedIssuers(f *oauth.Flow) []string {
	var out []string
	for _, st := range f.Steps {
		if st.Kind == oauth.StepResourceMeta && st.OK {
			out = append(out, st.Resource.AuthorizationServers...)
		}
	}
	return out
}

func pkceDescription(a *oauth.AuthorizationRequest) string {
	switch {
	case !a.CodeChallenge:
		return "no code_challenge"
	case a.CodeChallengeMethod == "":
		return "code_challenge_method absent (plain)"
	}
	return "code_challenge_method " + a.CodeChallengeMethod
}

func challengeText(st *oauth.Step) string {
	if st.Challenge == nil || st.Challenge.Header == "" {
		return ""
	}
	return "; WWW-Authenticate: " + st.Challenge.Header
}

func listText(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return "[" + strings.Join(s, " ") + "]"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
