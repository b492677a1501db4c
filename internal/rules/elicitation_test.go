package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

func TestElicitationRules(t *testing.T) {
	t.Parallel()
	form := func(props string) string {
		return `{"k":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":` + props + `}}}}`
	}
	urlMode := `{"k":{"method":"elicitation/create","params":{"mode":"url","message":"log in","url":"https://example.com/login?password=1"}}}`
	legacyAsk := func(props string) string {
		return `{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":` + props + `}}}`
	}
	answer := func(action string) string { return `,"inputResponses":{"a":{"action":"` + action + `"}}` }
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"accept decline cancel", []step{
			c2s(tool("1", "t", "{}", answer("accept"))), c2s(tool("2", "t", "{}", answer("decline"))), c2s(tool("3", "t", "{}", answer("cancel"))),
		}, []string{"unpaired-retry@1", "unpaired-retry@2", "unpaired-retry@3"}},
		{"postpone", []step{c2s(tool("1", "t", "{}", answer("postpone")))}, []string{"unpaired-retry@1", "elicitation-action-unknown@1"}},
		{"a sampling answer has no action", []step{
			c2s(tool("1", "t", "{}", `,"inputResponses":{"s":{"role":"assistant","model":"m","content":{"type":"text","text":"x"}}}`)),
		}, []string{"unpaired-retry@1"}},
		{"legacy answer postpone", []step{
			s2c(legacyAsk(`{"name":{"type":"string"}}`)), c2s(res("5", `{"action":"postpone"}`)),
		}, []string{"elicitation-action-unknown@2"}},
		{"form asks for a password", []step{
			c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", form(`{"user":{"type":"string"},"Password":{"type":"string"}}`), "")),
		}, []string{"elicitation-sensitive-form-field@2"}},
		{"form asks for a name and an email", []step{
			c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", form(`{"username":{"type":"string"},"email":{"type":"string"}}`), "")),
		}, nil},
		{"url mode may carry the secret page", []step{c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", urlMode, ""))}, nil},
		{"form asks for an ssn by name, and a key by description", []step{
			c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", form(`{"SSN":{"type":"string"},"k":{"type":"string","description":"Your personal access token"}}`), "")),
		}, []string{"elicitation-sensitive-form-field@2", "elicitation-sensitive-form-field@2"}},
		{"descriptions about tokens a model counts, lessons and tokens of thanks", []step{
			c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", form(`{"max":{"type":"integer","description":"Max tokens to generate"},"lesson":{"type":"string","description":"Which lesson?"}}`), "")),
		}, nil},
		{"legacy form asks for an api key", []step{s2c(legacyAsk(`{"api_key":{"type":"string"}}`))}, []string{"elicitation-sensitive-form-field@1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.want, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// onConn puts a frame on connection conn (a stdio tap has one; an HTTP
// tap one per stream).
func onConn(conn string, st step) step {
	st.rec = &capture.Record{Type: capture.TypeFrame, Dir: st.dir, Conn: conn}
	return st
}

// TestLegacyAnswersPairByConnection: two connections whose servers ask
// with the same request id each get their own question's schema. Pairing
// by the id alone judged a's answer against b's schema, and b's answer
// against none.
func TestLegacyAnswersPairByConnection(t *testing.T) {
	t.Parallel()
	ask := func(props, required string) string {
		return `{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":` +
			props + `,"required":` + required + `}}}`
	}
	steps := []step{
		onConn("a", s2c(ask(`{"n":{"type":"integer","minimum":1}}`, `["n"]`))),
		onConn("b", s2c(ask(`{"name":{"type":"string"}}`, `["name"]`))),
		onConn("a", c2s(res("5", `{"action":"accept","content":{"n":2}}`))),
		onConn("b", c2s(res("5", `{"action":"accept","content":{"name":3}}`))),
	}
	snap := load(t, steps)
	want := []string{"elicitation-content-invalid@4"}
	if diff := cmp.Diff(want, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestElicitationForgetsSettledQuestions: a retry that answers one of a
// round's two questions settles both (the store pairs the round with this
// retry only), so the rules keep no schema of that round.
func TestElicitationForgetsSettledQuestions(t *testing.T) {
	t.Parallel()
	two := `{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}},` +
		`"b":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{"s":{"type":"string"}}}}}}`
	steps := []step{
		c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", two, "s")),
		c2s(tool("2", "t", "{}", `,"inputResponses":{"a":{"action":"accept","content":{"n":1}}},"requestState":"s"`)),
		s2c(res("2", `{"resultType":"complete","content":[]}`)),
	}
	el := NewElicitation()
	st := store.New(&store.Options{Rules: Default(), Checks: []store.Check{el}})
	for _, r := range records(steps) {
		st.Ingest(&r)
	}
	if fs := st.Final().Findings.Slice(); len(fs) != 0 {
		t.Errorf("findings %v, want none", findingLines(fs))
	}
	if len(el.schemas) != 0 {
		t.Errorf("the rules still keep %d rounds' schemas after the retry settled them", len(el.schemas))
	}
}
