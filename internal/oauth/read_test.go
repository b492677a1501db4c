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

// readCapture runs a capture file through a store with a Tracker and
// reads the flow.
func readCapture(t *testing.T, path string) Auth {
	t.Helper()
	h, recs, _, err := capture.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return readRecords(append([]capture.Record{*h}, recs...))
}

func readRecords(recs []capture.Record) Auth {
	var tr Tracker
	st := store.New(&store.Options{OnFrame: tr.Track})
	for i := range recs {
		st.Ingest(&recs[i])
	}
	return Read(st.Final(), &tr)
}

// brief is what a test compares of a step.
type brief struct {
	Kind   string
	Seq    uint64
	Status int
	OK     bool
	What   string
}

func briefs(f Flow) []brief {
	var out []brief
	for _, s := range f.Steps {
		b := brief{Kind: s.Kind, Seq: s.Seq, Status: s.Status, OK: s.OK}
		switch {
		case s.Challenge != nil && s.Kind == StepChallenge:
			b.What = s.Challenge.ResourceMetadata + " " + s.Challenge.Scope
		case s.Resource != nil:
			b.What = s.Resource.Resource + " " + strings.Join(s.Resource.AuthorizationServers, ",")
		case s.Server != nil:
			b.What = s.Server.Issuer + " " + strings.Join(s.Server.CodeChallengeMethods, ",") + " " + s.Server.RegistrationEndpoint
		case s.Registration != nil:
			b.What = s.Registration.ClientID + " " + strings.Join(s.Registration.RedirectURIs, ",") + " " + s.Registration.TokenEndpointAuthMethod
		case s.Authorization != nil:
			a := s.Authorization
			b.What = a.ResponseType + " " + a.CodeChallengeMethod + " " + strings.Join(a.Resource, ",") + " " + a.Scope
		case s.Callback != nil:
			b.What = s.Callback.Iss
		case s.Token != nil:
			k := s.Token
			b.What = k.GrantType + " " + strings.Join(k.Resource, ",") + " " + k.ScopeGranted + " " + k.TokenType + " " + itoa(k.ExpiresIn)
		case s.Bearer != nil:
			b.What = s.Bearer.MCPMethod
		}
		out = append(out, b)
	}
	return out
}

func itoa(n int64) string { return string(jsontext.Value([]byte(strings.TrimSpace(mustJSON(n))))) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The clean corpus flow reads as its nine steps, in order, with the
// values that matter, and no credential.
func TestReadCleanFlow(t *testing.T) {
	t.Parallel()
	a := readCapture(t, "../../testdata/oauth/oauth-clean.capture.jsonl")
	if len(a.Flows) != 1 {
		t.Fatalf("got %d flows, want 1: %+v", len(a.Flows), a)
	}
	f := a.Flows[0]
	if f.Resource != "https://rs.example.com/mcp" || f.Issuer != "https://as.example.com/tenant1" {
		t.Errorf("flow resource %q issuer %q", f.Resource, f.Issuer)
	}
	const rm = "https://rs.example.com/.well-known/oauth-protected-resource/mcp"
	want := []brief{
		{StepChallenge, 1, 401, false, rm + " mcp:tools"},
		{StepResourceMeta, 3, 200, true, "https://rs.example.com/mcp https://as.example.com/tenant1"},
		{StepServerMeta, 4, 200, true, "https://as.example.com/tenant1 S256 https://as.example.com/tenant1/register"},
		{StepRegistration, 5, 201, true, "c-8f3a http://127.0.0.1:33418/callback none"},
		{StepAuthorization, 6, 302, true, "code S256 https://rs.example.com/mcp mcp:tools"},
		{StepCallback, 7, 200, true, "https://as.example.com/tenant1"},
		{StepToken, 8, 200, true, "authorization_code https://rs.example.com/mcp mcp:tools Bearer 3600"},
		{StepBearer, 9, 200, true, "initialize"},
	}
	if diff := cmp.Diff(want, briefs(f)); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if d := f.Steps[0].DurationMS; d != 4 {
		t.Errorf("challenge took %v ms, want 4", d)
	}
	if s := mustJSON(a); strings.Contains(s, "secret") || strings.Contains(s, "access_token") || strings.Contains(s, `"[REDACTED]"`) {
		t.Errorf("the flow carries a redacted value or a secret: %s", s)
	}
}

// A reverse-proxy capture (paths, the target in the header) resolves the
// MCP URL against the target; two resources with two servers are two
// flows; a session whose bearer requests follow no other step has none.
func TestReadGroupsAndResolves(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	var recs []capture.Record
	add := func(r capture.Record) {
		r.Seq, r.Time = uint64(len(recs)), t0.Add(time.Duration(len(recs))*time.Millisecond)
		recs = append(recs, r)
	}
	add(capture.Record{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "http", Target: "http://127.0.0.1:9000/mcp"})
	frame := func(dir capture.Dir, ex, u string, status int, h map[string]string) {
		r := capture.Record{Type: capture.TypeFrame, Dir: dir, HTTP: &capture.HTTP{Exchange: ex, Method: "POST", Path: "/mcp", URL: u, Status: status, Headers: h}}
		if dir == capture.C2S {
			r.Msg = jsontext.Value(`{"jsonrpc":"2.0","id":"` + ex + `","method":"tools/list"}`)
		}
		add(r)
	}
	xch := func(u string, status int, body string) {
		add(capture.Record{Type: capture.TypeExchange, Exchange: &capture.Exchange{Method: "GET", URL: u, Status: status, RespBody: body}})
	}
	www := map[string]string{"WWW-Authenticate": `Bearer resource_metadata="http://127.0.0.1:9000/.well-known/oauth-protected-resource"`}
	frame(capture.C2S, "a", "", 0, nil)
	frame(capture.S2C, "a", "", 401, www)
	xch("http://127.0.0.1:9000/.well-known/oauth-protected-resource", 200, `{"resource":"http://127.0.0.1:9000/mcp","authorization_servers":["http://127.0.0.1:9100"]}`)
	frame(capture.C2S, "b", "https://two.example/mcp", 0, nil)
	frame(capture.S2C, "b", "https://two.example/mcp", 401, map[string]string{"WWW-Authenticate": `Bearer realm="two"`})
	xch("http://127.0.0.1:9100/.well-known/oauth-authorization-server", 200, `{"issuer":"http://127.0.0.1:9100"}`)
	a := readRecords(recs)
	var got [][]brief
	for _, f := range a.Flows {
		got = append(got, briefs(f))
	}
	want := [][]brief{
		{{StepChallenge, 1, 401, false, "http://127.0.0.1:9000/.well-known/oauth-protected-resource "},
			{StepResourceMeta, 3, 200, true, "http://127.0.0.1:9000/mcp http://127.0.0.1:9100"},
			{StepServerMeta, 6, 200, true, "http://127.0.0.1:9100  "}},
		{{StepChallenge, 4, 401, false, " "}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flows (-want +got):\n%s", diff)
	}
	if a.Flows[0].Resource != "http://127.0.0.1:9000/mcp" || a.Flows[0].Steps[0].URL != "http://127.0.0.1:9000/mcp" {
		t.Errorf("the reverse-proxy path did not resolve against the target: %q %q", a.Flows[0].Resource, a.Flows[0].Steps[0].URL)
	}
	if none := readRecords(recs[:1]); len(none.Flows) != 0 {
		t.Errorf("an empty session has flows: %+v", none)
	}
}

// An MCP POST whose 401 a tap recorded as an exchange (no JSON-RPC in the
// answer) still opens the flow as its challenge; a token endpoint's 401
// with a Basic challenge stays a token step.
func TestReadChallengeExchange(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	recs := []capture.Record{{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "http", Time: t0}}
	for i, x := range []*capture.Exchange{
		{Method: "POST", URL: "https://rs.example/mcp", Status: 401, ReqBody: `{"jsonrpc":"2.0","id":1,"method":"initialize"}`,
			RespHeaders: map[string]string{"Www-Authenticate": `Bearer resource_metadata="https://rs.example/.well-known/oauth-protected-resource"`}},
		{Method: "GET", URL: "https://rs.example/.well-known/oauth-protected-resource", Status: 200, RespBody: `{"resource":"https://rs.example/mcp","authorization_servers":["https://as.example"]}`},
		{Method: "POST", URL: "https://as.example/token", Status: 401, ReqBody: "grant_type=client_credentials",
			RespHeaders: map[string]string{"WWW-Authenticate": `Basic realm="as"`}, RespBody: `{"error":"invalid_client"}`},
	} {
		recs = append(recs, capture.Record{Type: capture.TypeExchange, Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond), Exchange: x})
	}
	a := readRecords(recs)
	if len(a.Flows) != 1 {
		t.Fatalf("got %d flows, want 1: %+v", len(a.Flows), a)
	}
	want := []brief{
		{StepChallenge, 1, 401, false, "https://rs.example/.well-known/oauth-protected-resource "},
		{StepResourceMeta, 2, 200, true, "https://rs.example/mcp https://as.example"},
		{StepClientCredentials, 3, 401, false, "client_credentials    0"},
	}
	if diff := cmp.Diff(want, briefs(a.Flows[0])); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if got := a.Flows[0].Steps[2].Error; got != "invalid_client" {
		t.Errorf("token error %q, want invalid_client", got)
	}
}
