package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
)

// form is an inputRequests map with one form question under key "a".
func form(props, required string) string {
	return `{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":` +
		props + `,"required":` + required + `}}}}`
}

// urlAsk is an inputRequests map with one url-mode question under "a".
func urlAsk(url string) string {
	return `{"a":{"method":"elicitation/create","params":{"mode":"url","message":"sign in","url":"` + url + `"}}}`
}

// asked is a tool call answered by an interim result carrying inputs
// under requestState "s".
func asked(inputs string) []step {
	return []step{c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", inputs, "s"))}
}

// answeredWith adds the retry answering key "a" with answer, and its final
// result.
func answeredWith(inputs, answer string) []step {
	return append(asked(inputs), c2s(tool("2", "t", "{}", `,"inputResponses":{"a":`+answer+`},"requestState":"s"`)),
		s2c(res("2", `{"resultType":"complete","content":[]}`)))
}

// stdioList is a tools/list call id answered with tools.
func stdioList(id, tools string) []step {
	return []step{c2s(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{` + meta + `}}`),
		s2c(res(id, `{"resultType":"complete","tools":[`+tools+`]}`))}
}

const (
	okTool     = `{"name":"rm","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}`
	destroyer  = `{"name":"rm","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}}`
	numberForm = `{"n":{"type":"integer","minimum":1}}`
)

// noElicitMeta declares no elicitation at all.
const noElicitMeta = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`

// newRuleSessions are the sessions that raise the elicitation and tool
// rules (raising() holds them with the others), and quietSessions their
// near misses that must not.
func newRuleSessions() map[string][]step {
	return map[string][]step{
		"elicitation-mode-undeclared":      {c2s(noElicitMeta), s2c(inputRequired("1", urlAsk("https://example.com/x"), ""))},
		"elicitation-content-on-decline":   answeredWith(form(numberForm, `[]`), `{"action":"decline","content":{"n":2}}`),
		"elicitation-content-invalid":      answeredWith(form(numberForm, `["n"]`), `{"action":"accept","content":{"n":0}}`),
		"elicitation-url-insecure":         asked(urlAsk("http://10.0.0.1/login")),
		"elicitation-unanswered":           append(asked(form(numberForm, `[]`)), endRec()),
		"elicitation-schema-unsupported":   asked(form(`{"note":{"anyOf":[{"type":"string"},{"type":"null"}]}}`, `[]`)),
		"elicitation-sensitive-form-field": asked(form(`{"id":{"type":"string","description":"Your SSN"}}`, `[]`)),
		"approval-missing": append(stdioList("9", destroyer), c2s(tool("1", "rm", "{}", "")),
			s2c(res("1", `{"resultType":"complete","content":[]}`))),
		"tool-name-invalid":       stdioList("9", `{"name":"rm -rf","inputSchema":{"type":"object"}}`),
		"tool-schema-invalid":     stdioList("9", `{"name":"rm","inputSchema":{"type":"object","properties":{"p":{"type":"nope"}}}}`),
		"tool-definition-changed": append(append(listening(), stdioList("8", okTool)...), stdioList("9", `{"name":"rm","description":"now different","inputSchema":{"type":"object"}}`)...),
	}
}

// listening opens a subscriptions/listen stream, on which a 2026-07-28
// server can announce list changes.
func listening() []step {
	return []step{c2s(`{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + meta + `}}`)}
}

func quietSessions() map[string][]step {
	return map[string][]step{
		"elicitation-mode-undeclared":    {c2s(noElicitMeta), s2c(inputRequired("1", form(numberForm, `[]`), ""))},
		"elicitation-content-on-decline": answeredWith(form(numberForm, `[]`), `{"action":"decline"}`),
		"elicitation-content-invalid":    answeredWith(form(numberForm, `["n"]`), `{"action":"accept","content":{"n":3}}`),
		"elicitation-url-insecure":       asked(urlAsk("https://login.example.com/x?flow=1")),
		"elicitation-unanswered":         append(answeredWith(form(numberForm, `[]`), `{"action":"cancel"}`), endRec()),
		"elicitation-schema-unsupported": asked(`{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":` +
			`{"type":"object","properties":{"e":{"type":"string","format":"email"},"s":{"type":"string","oneOf":[{"const":"s1","title":"C"}]},` +
			`"c":{"type":"array","items":{"type":"string","enum":["x","y"]}},"b":{"type":"boolean","default":false},"n":{"type":"number","maximum":3}}}}}}`),
		"elicitation-sensitive-form-field": asked(form(`{"username":{"type":"string","description":"Your login name"},"email":{"type":"string"}}`, `[]`)),
		"approval-missing": append(stdioList("9", destroyer), answeredWith(`{"a":{"method":"elicitation/create","params":{"message":"delete?","requestedSchema":{"type":"object","properties":{}}}}}`,
			`{"action":"accept","content":{}}`)...),
		"tool-name-invalid":   stdioList("9", `{"name":"files.rm_all-2","inputSchema":{"type":"object"}}`),
		"tool-schema-invalid": stdioList("9", okTool),
		"tool-definition-changed": append(append(append(listening(), stdioList("8", okTool)...), s2c(notif("notifications/tools/list_changed", "{}"))),
			stdioList("9", `{"name":"rm","description":"now different","inputSchema":{"type":"object"}}`)...),
	}
}

// allOn is the default registry with the opt-in rules enabled.
func allOn(t *testing.T) *finding.Registry {
	t.Helper()
	reg := Default().Clone()
	for _, r := range reg.Rules() {
		if err := reg.Enable(r.ID); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// raisedBy returns the rule ids a session raises with every rule on.
func raisedBy(t *testing.T, reg *finding.Registry, steps []step) []string {
	t.Helper()
	st := store.New(&store.Options{Rules: reg, Checks: Checks()})
	for _, r := range records(steps) {
		st.Ingest(&r)
	}
	var got []string
	for _, f := range st.Final().Findings.Slice() {
		got = append(got, fmt.Sprintf("%s@%d", f.Rule, f.Seq))
	}
	return got
}

// TestQuietSessions: each near miss raises nothing of its rule. Every
// elicitation and tool rule must have one.
func TestQuietSessions(t *testing.T) {
	t.Parallel()
	reg := allOn(t)
	quiet := quietSessions()
	for id := range newRuleSessions() {
		if _, ok := quiet[id]; !ok {
			t.Errorf("rule %s: no quiet session", id)
		}
	}
	for id, steps := range quiet {
		if _, ok := reg.Rule(id); !ok {
			t.Errorf("quietSessions has %s, which is not a rule", id)
		}
		got := raisedBy(t, reg, steps)
		if slices.ContainsFunc(got, func(s string) bool { return len(s) > len(id) && s[:len(id)+1] == id+"@" }) {
			t.Errorf("%s: the near miss raised %v", id, got)
		}
	}
}

// TestContentInvalidNamesNoValue: a content-invalid finding names the
// field and the keyword it fails, never the value the user typed, even
// for keywords whose validator message quotes it (pattern, enum, const).
func TestContentInvalidNamesNoValue(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-TOPSECRET"
	props := `{"code":{"type":"string","pattern":"^[0-9]+$","maxLength":4},"pick":{"type":"string","enum":["a","b"]},"n":{"type":"integer"}}`
	steps := answeredWith(form(props, `["code","pick","n","gone"]`),
		`{"action":"accept","content":{"code":"`+secret+`","pick":"`+secret+`","n":"`+secret+`"}}`)
	st := store.New(&store.Options{Rules: allOn(t), Checks: Checks()})
	for _, r := range records(steps) {
		st.Ingest(&r)
	}
	var got []string
	for _, f := range st.Final().Findings.Slice() {
		if strings.Contains(f.Message, "hunter2") {
			t.Errorf("finding %s quotes the value: %s", f.Rule, f.Message)
		}
		if f.Rule == "elicitation-content-invalid" {
			got = append(got, f.Message)
		}
	}
	want := []string{
		`inputResponses["a"] content: field "code" fails maxLength`,
		`inputResponses["a"] content: field "code" fails pattern`,
		`inputResponses["a"] content: field "gone" fails required (missing)`,
		`inputResponses["a"] content: field "n" fails type`,
		`inputResponses["a"] content: field "pick" fails enum`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("content-invalid messages (-want +got):\n%s", diff)
	}
}

// TestApprovalMissingAnnotations: approval-missing judges the tool with
// mcp.ToolDestructiveness and raises only for a declared destructiveHint:
// true (the last of repeated members, as JavaScript clients read it, and
// never over readOnlyHint: true). A tool without annotations raises
// nothing: MCP assumes it destructive, but a finding on every call of an
// unannotated server would flag correct sessions.
func TestApprovalMissingAnnotations(t *testing.T) {
	t.Parallel()
	reg := allOn(t)
	cases := []struct {
		ann  string // the annotations member of rm; "" for none
		want bool
	}{
		{`{"destructiveHint":true}`, true},
		{`{"destructiveHint":false,"destructiveHint":true}`, true},
		{`{"destructiveHint":true,"destructiveHint":false}`, false},
		{`{"readOnlyHint":true,"destructiveHint":true}`, false},
		{`{"readOnlyHint":true,"readOnlyHint":false,"destructiveHint":true}`, true},
		{`{"destructiveHint":"true"}`, false},
		{``, false},
	}
	for _, tc := range cases {
		t.Run(tc.ann, func(t *testing.T) {
			t.Parallel()
			def := `{"name":"rm","inputSchema":{"type":"object"}}`
			if tc.ann != "" {
				def = `{"name":"rm","inputSchema":{"type":"object"},"annotations":` + tc.ann + `}`
			}
			steps := append(stdioList("9", def), c2s(tool("1", "rm", "{}", "")), s2c(res("1", `{"resultType":"complete","content":[]}`)))
			got := slices.ContainsFunc(raisedBy(t, reg, steps), func(s string) bool { return strings.HasPrefix(s, finding.ApprovalMissing+"@") })
			if got != tc.want {
				t.Errorf("annotations %s: approval-missing raised %v, want %v", tc.ann, got, tc.want)
			}
		})
	}
}

// TestContentRedactedNotJudged: with --redact-answers every answer value is
// the string "[REDACTED]"; a field whose value redaction replaced is not
// judged against its type, format, enum or pattern, in an MRTR retry and a
// legacy elicitation/create answer alike, while what redaction kept (a
// required field left out) still is. Unredacted, the same answers are
// judged: a code that fails its pattern, an array over maxItems.
func TestContentRedactedNotJudged(t *testing.T) {
	t.Parallel()
	props := `{"n":{"type":"integer","minimum":1},"ok":{"type":"boolean"},"mail":{"type":"string","format":"email"},` +
		`"code":{"type":"string","pattern":"^[0-9]+$"},"picks":{"type":"array","maxItems":1,"items":{"type":"string","enum":["a","b"]}},"gone":{"type":"string"}}`
	content := `{"n":3,"ok":true,"mail":"ada@example.com","code":"abc","picks":["a","b"]}`
	legacyAsk := `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":` +
		props + `,"required":["gone"]}}}`
	sessions := map[string][]step{
		"mrtr":   answeredWith(form(props, `["gone"]`), `{"action":"accept","content":`+content+`}`),
		"legacy": {s2c(legacyAsk), c2s(`{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":` + content + `}}`)},
	}
	for name, steps := range sessions {
		for _, redacted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s redacted=%v", name, redacted), func(t *testing.T) {
				t.Parallel()
				recs := records(steps)
				if redacted {
					red, err := redact.New(&redact.Options{Answers: true})
					if err != nil {
						t.Fatal(err)
					}
					n := 0
					for i := range recs {
						if red.Record(&recs[i]) {
							n++
						}
					}
					if n == 0 {
						t.Fatal("redaction changed no record")
					}
				}
				st := store.New(&store.Options{Rules: allOn(t), Checks: Checks()})
				for _, r := range recs {
					st.Ingest(&r)
				}
				var got []string
				for _, f := range st.Final().Findings.Slice() {
					if f.Rule == finding.ElicitContentInvalid {
						got = append(got, f.Message[strings.Index(f.Message, "field"):])
					}
				}
				want := []string{`field "gone" fails required (missing)`}
				if !redacted {
					want = []string{`field "code" fails pattern`, `field "gone" fails required (missing)`, `field "picks" fails maxItems`}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("content-invalid (-want +got):\n%s", diff)
				}
			})
		}
	}
}
