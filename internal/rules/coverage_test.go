package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// ans answers the inputRequests of elicit("a").
const ans = `,"inputResponses":{"a":{"action":"accept","content":{"x":1}}}`

// inputRequired is an input_required result; state "" leaves it out.
func inputRequired(id, inputs, state string) string {
	r := `{"resultType":"input_required","inputRequests":` + inputs
	if state != "" {
		r += fmt.Sprintf(`,"requestState":%q`, state)
	}
	return res(id, r+"}")
}

// elicit is an inputRequests map with one form elicitation under key.
func elicit(key string) string {
	return fmt.Sprintf(`{%q:{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}`, key)
}

func ping(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }

func cancelled(id string) string { return notif("notifications/cancelled", `{"requestId":`+id+`}`) }

func note(r capture.Record) step {
	r.Type = capture.TypeNote
	return step{rec: &r}
}

// raising maps every rule id to a session that raises it (damage, when
// set, is what the capture reader reported). The corpus, the store's and
// this package's tests raise them in more ways; this table proves each
// rule is live with the default registry and checks.
func raising() map[string]struct {
	steps  []step
	damage capture.Damage
} {
	type session = struct {
		steps  []step
		damage capture.Damage
	}
	one := func(steps ...step) session { return session{steps: steps} }
	paramTool := `{"name":"deploy","inputSchema":{"type":"object","properties":{"env":{"type":"string","x-mcp-header":"Env"}}}}`
	badTool := `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}}`
	listed := func(tools string) []step {
		return []step{
			post("l", `{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{`+meta+`}}`,
				map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}),
			answer("l", 200, res(`"l"`, `{"resultType":"complete","tools":[`+tools+`]}`), jsonCT),
		}
	}
	out := map[string]session{
		"invalid-frame":                 one(c2s("not json")),
		"non-conforming-frame":          one(c2s(`{"jsonrpc":"1.0","id":1,"method":"ping"}`)),
		"null-id":                       one(c2s(`{"jsonrpc":"2.0","id":null,"method":"ping"}`)),
		"batch-frame":                   one(c2s("[" + ping("1") + "]")),
		"id-reused-in-flight":           one(c2s(ping("1")), c2s(ping("1"))),
		"response-without-request":      one(s2c(res("9", "{}"))),
		"duplicate-response":            one(c2s(ping("1")), s2c(res("1", "{}")), s2c(res("1", "{}"))),
		"late-result":                   one(c2s(ping("1")), c2s(cancelled("1")), s2c(res("1", "{}"))),
		"cancel-unknown-request":        one(c2s(cancelled("99"))),
		"unanswered-request":            one(c2s(ping("1")), endRec()),
		"mrtr-state-changed":            one(c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", elicit("a"), "good")), c2s(tool("2", "t", "{}", ans+`,"requestState":"bad"`))),
		"mrtr-state-missing":            one(c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", elicit("a"), "good")), c2s(tool("2", "t", "{}", ans))),
		"mrtr-state-invented":           one(c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", elicit("a"), "")), c2s(tool("2", "t", "{}", ans+`,"requestState":"x"`))),
		"mrtr-retry-same-id":            one(c2s(tool("1", "t", "{}", "")), s2c(inputRequired("1", elicit("a"), "s")), c2s(tool("1", "t", "{}", ans+`,"requestState":"s"`))),
		"mrtr-retry-mismatch":           one(c2s(tool("1", "t", `{"n":1}`, "")), s2c(inputRequired("1", elicit("a"), "s")), c2s(tool("2", "t", `{"n":2}`, ans+`,"requestState":"s"`))),
		"mrtr-not-retryable":            one(c2s(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`), s2c(inputRequired("1", elicit("a"), "s"))),
		"unpaired-retry":                one(c2s(tool("1", "t", "{}", `,"requestState":"from-before"`))),
		"capture-gap":                   one(note(capture.Record{Note: capture.NoteCaptureGap, LostFrame: 2, LostBytes: 10})),
		"capture-torn":                  {damage: capture.Damage{Torn: true, TornBytes: 5}},
		"capture-corrupt":               {damage: capture.Damage{Corrupt: 1, CorruptLines: []int{3}}},
		"server-exit-abnormal":          one(note(capture.Record{Note: capture.NoteServerExit, Signal: "SIGKILL"})),
		"server-ignored-stdin-eof":      one(note(capture.Record{Note: capture.NoteServerExit, Signal: "SIGTERM", StoppedBy: capture.StopClient, EOFAgeUS: 2e6})),
		"server-start-failed":           one(note(capture.Record{Note: capture.NoteStartFailed, Text: "no such file"})),
		"relay-error":                   one(note(capture.Record{Note: capture.NoteRelayError, Text: "broken pipe"})),
		"http-batch":                    one(post("x", "["+tool("1", "a", "{}", "")+"]", nil)),
		"http-protocol-version-header":  one(post("x", tool("1", "a", "{}", ""), map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "a"})),
		"http-method-header":            one(post("x", tool("1", "a", "{}", ""), map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Name": "a"})),
		"http-name-header":              one(post("x", tool("1", "a", "{}", ""), modernHeaders("b"))),
		"http-request-without-response": one(post("x", tool("1", "a", "{}", ""), modernHeaders("a")), answer("x", 202, "", nil)),
		"http-error-status":             one(post("x", tool("1", "a", "{}", ""), modernHeaders("a")), answer("x", 401, "", nil)),
		"http-response-content-type":    one(post("x", tool("1", "a", "{}", ""), modernHeaders("a")), answer("x", 200, res("1", "{}"), map[string]string{"Content-Type": "text/plain"})),
		"http-notification-status":      one(post("x", notif("notifications/x", "{}"), map[string]string{"MCP-Protocol-Version": "2026-07-28"}), answer("x", 200, "", nil)),
		"http-param-header":             one(append(listed(paramTool), post("c", tool("1", "deploy", `{"env":"prod"}`, ""), modernHeaders("deploy")))...),
		"tool-header-annotation":        one(listed(badTool)...),
		"elicitation-action-unknown":    one(c2s(tool("1", "t", "{}", `,"inputResponses":{"a":{"action":"postpone"}}`))),
	}
	for id, steps := range newRuleSessions() {
		out[id] = one(steps...)
	}
	for id, steps := range extSessions() { // ext_test.go
		out[id] = one(steps...)
	}
	for id, steps := range taskSessions() { // task_test.go
		out[id] = one(steps...)
	}
	for id, steps := range deprecationSessions() { // deprecated_test.go
		out[id] = one(steps...)
	}
	out[finding.OAuthMetadataAroundProxy] = one(aroundProxySession("http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp")...)
	for id, steps := range oauthSessions() { // oauth_test.go
		if !cleanFlow(id) {
			out[id] = one(steps...)
		}
	}
	return out
}

// TestEveryRuleIsRaised fails for a registered rule that no session of
// the table raises, and for a table entry that is not a rule.
func TestEveryRuleIsRaised(t *testing.T) {
	t.Parallel()
	reg := allOn(t)
	table := raising()
	for _, rule := range reg.Rules() {
		if rule.Category == finding.Assertion || rule.Category == finding.Drift {
			continue // internal/check raises them; its tests (and drift_test.go) raise each one
		}
		if _, ok := table[rule.ID]; !ok {
			t.Errorf("rule %s: no session in raising() raises it", rule.ID)
		}
	}
	for id, sess := range table {
		if _, ok := reg.Rule(id); !ok {
			t.Errorf("raising() has %s, which is not a rule", id)
			continue
		}
		st := store.New(&store.Options{Rules: reg, Checks: Checks()})
		for _, r := range records(sess.steps) {
			st.Ingest(&r)
		}
		st.SetDamage(sess.damage)
		snap := st.Final()
		var got []string
		for _, f := range snap.Findings.Slice() {
			got = append(got, f.Rule)
			if f.Severity != reg.Severity(f.Rule) {
				t.Errorf("%s: finding %s graded %q, want %q", id, f.Rule, f.Severity, reg.Severity(f.Rule))
			}
		}
		if !slices.Contains(got, id) {
			t.Errorf("%s: the session raised %v", id, got)
		}
	}
}

// TestRaisedRulesAreRegistered reads every finding.New call of the store
// and of this package: its rule must be a finding constant that Default
// registers. A rule id that is not a constant fails too.
func TestRaisedRulesAreRegistered(t *testing.T) {
	t.Parallel()
	consts := findingConstants(t)
	reg := Default()
	for _, dir := range []string{"../store", "."} {
		for _, call := range findingNewCalls(t, dir) {
			id, ok := consts[call.arg]
			switch {
			case !ok:
				t.Errorf("%s: finding.New's rule %s is not a constant of package finding", call.pos, call.arg)
			case !registered(reg, id):
				t.Errorf("%s: rule %q (finding.%s) is raised but not registered in Default", call.pos, id, call.arg)
			}
		}
	}
}

// TestCorpusRulesAreRegistered checks the rule of every finding in the
// corpus's JSON goldens.
func TestCorpusRulesAreRegistered(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../testdata/transcripts/*.json.golden")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus goldens: %v", err)
	}
	reg := Default()
	rule := regexp.MustCompile(`\{"rule":"([^"]+)","severity":"([^"]+)"`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rule.FindAllStringSubmatch(string(data), -1) {
			if _, ok := reg.Rule(m[1]); !ok || string(reg.Severity(m[1])) != m[2] {
				t.Errorf("%s: finding of rule %q graded %q: unregistered or not its default severity", filepath.Base(f), m[1], m[2])
			}
		}
	}
}

func registered(reg *finding.Registry, id string) bool {
	_, ok := reg.Rule(id)
	return ok
}

// findingConstants returns the string constants of package finding, by
// name.
func findingConstants(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, file := range parseDir(t, "../finding") {
		ast.Inspect(file, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
			return true
		})
	}
	return out
}

type newCall struct{ pos, arg string }

// findingNewCalls returns the finding.New calls of the non-test files of
// dir, with their first argument as "Name" for finding.Name, else as the
// expression's text.
func findingNewCalls(t *testing.T, dir string) []newCall {
	t.Helper()
	var out []newCall
	fset := token.NewFileSet()
	for _, file := range parseDirSet(t, dir, fset) {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || fn.Sel.Name != "New" || fmt.Sprint(fn.X) != "finding" {
				return true
			}
			arg := fmt.Sprintf("%T", call.Args[0])
			if sel, ok := call.Args[0].(*ast.SelectorExpr); ok && fmt.Sprint(sel.X) == "finding" {
				arg = sel.Sel.Name
			}
			out = append(out, newCall{pos: fset.Position(call.Pos()).String(), arg: arg})
			return true
		})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no finding.New calls found", dir)
	}
	return out
}

func parseDir(t *testing.T, dir string) []*ast.File {
	return parseDirSet(t, dir, token.NewFileSet())
}

func parseDirSet(t *testing.T, dir string, fset *token.FileSet) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}
