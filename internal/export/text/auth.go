package textexport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// writeAuth writes the authorization section, one table per flow; a
// session without a flow gets no section at all.
func writeAuth(w *bufio.Writer, a *oauth.Auth, start time.Time, l Layout) {
	if a == nil || len(a.Flows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nauthorization (%s)\n", plural(len(a.Flows), "flow"))
	writeFlows(w, a, start, l, "  ")
}

// WriteAuth writes a session's authorization flows as `mcptrail auth`
// prints them: per flow a heading (resource and issuer) and a table of its
// steps with their seq, time since start, duration, request, status and
// what matters of each. It writes nothing for a session without a flow.
func WriteAuth(w io.Writer, a *oauth.Auth, start time.Time, l Layout) error {
	bw := bufio.NewWriter(w)
	writeFlows(bw, a, start, l, "")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing authorization flow: %w", err)
	}
	return nil
}

func writeFlows(w *bufio.Writer, a *oauth.Auth, start time.Time, l Layout, indent string) {
	for i := range a.Flows {
		f := &a.Flows[i]
		if i > 0 {
			w.WriteByte('\n')
		}
		fmt.Fprintf(w, "%sflow %d: resource %s, issuer %s\n", indent, i+1, dash(cell(f.Resource)), dash(cell(f.Issuer)))
		t := &termtable.Table{Indent: indent, Columns: []termtable.Column{
			{Header: "SEQ"},
			{Header: "AT", Drop: 3},
			{Header: "TOOK", Drop: 1},
			{Header: "STEP"},
			{Header: "REQUEST", Cut: true, Min: 24, Drop: 2},
			{Header: "STATUS"},
			{Header: "DETAILS", Cut: true, Min: 24},
		}}
		body := make(cells, len(f.Steps))
		for j := range f.Steps {
			st := &f.Steps[j]
			status, style := stepStatus(st)
			body[j] = []termtable.Cell{text("#" + strconv.FormatUint(st.Seq, 10)), text("+" + formatMS(msBetween(start, st.Time))),
				text(formatMS(st.DurationMS)), text(st.Kind), text(cell(st.Method + " " + stripQuery(st.URL))),
				styled(status, style), text(StepDetails(st))}
		}
		l.render(w, t, body)
	}
}

func stripQuery(u string) string {
	u, _, _ = strings.Cut(u, "#")
	if base, _, ok := strings.Cut(u, "?"); ok {
		return base + "?…"
	}
	return u
}

// stepStatus is the status cell: the HTTP status, "ok" or the error.
func stepStatus(st *oauth.Step) (string, termtable.Style) {
	s := "-"
	if st.Status != 0 {
		s = strconv.Itoa(st.Status)
	}
	switch {
	case st.OK:
		return s + " ok", termtable.Good
	case st.Error != "":
		return s + " " + cell(st.Error), termtable.Bad
	case st.Status == 0:
		return s, termtable.Warn
	}
	return s, termtable.Bad
}

// StepDetails is what matters of a step, in one line, escaped; never a
// token value (the flow carries none).
func StepDetails(st *oauth.Step) string {
	var p []string
	add := func(k, v string) {
		if v != "" {
			p = append(p, k+"="+cell(v))
		}
	}
	list := func(k string, v []string) {
		if len(v) > 0 {
			p = append(p, k+"=["+cell(strings.Join(v, " "))+"]")
		}
	}
	switch {
	case st.Bearer != nil:
		add("mcp", st.Bearer.MCPMethod)
	case st.Challenge != nil:
		add("mcp", st.Challenge.MCPMethod)
	}
	if c := st.Challenge; c != nil {
		add("scheme", c.Scheme)
		add("resource_metadata", c.ResourceMetadata)
		add("scope", c.Scope)
		add("error", c.Error)
		if c.Header == "" {
			p = append(p, "no WWW-Authenticate")
		}
	}
	if m := st.Resource; m != nil {
		add("resource", m.Resource)
		list("authorization_servers", m.AuthorizationServers)
		list("scopes", m.ScopesSupported)
	}
	if m := st.Server; m != nil {
		serverDetails(m, add, list, &p)
	}
	if r := st.Registration; r != nil {
		add("client_id", r.ClientID)
		list("redirect_uris", r.RedirectURIs)
		list("grant_types", r.GrantTypes)
		add("auth", r.TokenEndpointAuthMethod)
	}
	if a := st.Authorization; a != nil {
		authorizationDetails(a, add, list, &p)
	}
	if c := st.Callback; c != nil {
		p = append(p, "code="+yesNo(c.Code), "state="+yesNo(c.State))
		add("iss", c.Iss)
		add("error", c.Error)
	}
	if k := st.Token; k != nil {
		tokenDetails(k, add, list, &p)
	}
	if st.ErrorDescription != "" {
		p = append(p, strconv.Quote(st.ErrorDescription))
	}
	if len(p) == 0 {
		return "-"
	}
	return strings.Join(p, " ")
}

func serverDetails(m *oauth.ServerMetadata, add func(k, v string), list func(k string, v []string), p *[]string) {
	add("issuer", m.Issuer)
	if m.Issuer == "" || strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(m.FetchedFor, "/") {
		add("fetched_for", m.FetchedFor)
	}
	if m.OIDC {
		*p = append(*p, "(OpenID)")
	}
	if len(m.CodeChallengeMethods) == 0 {
		*p = append(*p, "pkce=(none)")
	}
	list("pkce", m.CodeChallengeMethods)
	*p = append(*p, "registration="+yesNo(m.RegistrationEndpoint != ""))
	if m.IssParameter {
		*p = append(*p, "iss_parameter=yes")
	}
}

func authorizationDetails(a *oauth.AuthorizationRequest, add func(k, v string), list func(k string, v []string), p *[]string) {
	add("response_type", a.ResponseType)
	switch {
	case !a.CodeChallenge:
		*p = append(*p, "pkce=(none)")
	case a.CodeChallengeMethod == "":
		*p = append(*p, "pkce=plain(default)")
	default:
		add("pkce", a.CodeChallengeMethod)
	}
	list("resource", a.Resource)
	add("scope", a.Scope)
	*p = append(*p, "state="+yesNo(a.State))
	add("redirect_uri", a.RedirectURI)
}

func tokenDetails(k *oauth.Token, add func(k, v string), list func(k string, v []string), p *[]string) {
	add("grant_type", k.GrantType)
	if len(k.Resource) == 0 {
		*p = append(*p, "resource=(none)")
	}
	list("resource", k.Resource)
	add("scope_asked", k.ScopeAsked)
	add("scope_granted", k.ScopeGranted)
	add("token_type", k.TokenType)
	if k.ExpiresIn != 0 {
		*p = append(*p, "expires_in="+strconv.FormatInt(k.ExpiresIn, 10)+"s")
	}
	if k.Refresh {
		*p = append(*p, "refresh_token=issued")
	}
}
