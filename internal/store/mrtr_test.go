package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMRTR(t *testing.T) {
	t.Parallel()
	const ans = `,"inputResponses":{"a":{"action":"accept","content":{"x":1}}}`
	runScenarios(t, []scenario{{
		name: "chain of three rounds paired by requestState",
		steps: []step{
			c2s(0, tool(`"c-41"`, "deploy", `{"env":"staging","service":"b"}`, "")),
			s2c(10, inputRequired(`"c-41"`, elicit("approve"), "st1")),
			c2s(1000, tool(`"c-42"`, "deploy", `{"service":"b","env":"staging"}`, `,"inputResponses":{"approve":{"action":"accept"}},"requestState":"st1"`)),
			s2c(20, inputRequired(`"c-42"`, elicit("cloud_login"), "st2")),
			c2s(3000, tool(`"c-43"`, "deploy", `{"env":"staging","service":"b"}`, `,"inputResponses":{"cloud_login":{"action":"accept"}},"requestState":"st2"`)),
			s2c(30, done(`"c-43"`)),
		},
		calls: []string{
			`c2s "c-41" tools/call[deploy] input-required modern op=0/1`,
			`c2s "c-42" tools/call[deploy] input-required modern op=0/2`,
			`c2s "c-43" tools/call[deploy] ok modern op=0/3`,
		},
		ops: []string{"tools/call[deploy] ok root=0 rounds=0:root,1:strong,2:strong"},
	}, {
		name: "no requestState: heuristic on method, target, arguments (any key order) and keys",
		steps: []step{
			c2s(0, tool("1", "t", `{"a":1,"b":[1,2]}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			c2s(1, tool("2", "t", `{"b":[1,2],"a":1.0}`, ans)),
			s2c(1, done("2")),
		},
		calls: []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern op=0/2"},
		ops:   []string{"tools/call[t] ok root=0 rounds=0:root,1:heuristic"},
	}, {
		name: "requestState changed",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "good")),
			c2s(1, tool("2", "t", `{}`, ans+`,"requestState":"tampered"`)),
			s2c(1, done("2")),
		},
		calls:    []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern op=0/2"},
		ops:      []string{"tools/call[t] ok root=0 rounds=0:root,1:heuristic"},
		findings: []string{"mrtr-state-changed@3"},
	}, {
		name: "requestState dropped",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "good")),
			c2s(1, tool("2", "t", `{}`, ans)),
		},
		calls:    []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] pending modern op=0/2"},
		ops:      []string{"tools/call[t] pending root=0 rounds=0:root,1:heuristic"},
		findings: []string{"mrtr-state-missing@3"},
	}, {
		name: "requestState invented",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			c2s(1, tool("2", "t", `{}`, ans+`,"requestState":"made-up"`)),
			s2c(1, done("2")),
		},
		calls:    []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern op=0/2"},
		ops:      []string{"tools/call[t] ok root=0 rounds=0:root,1:heuristic"},
		findings: []string{"mrtr-state-invented@3"},
	}, {
		name: "retry reuses the original id",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "s")),
			c2s(1, tool("1", "t", `{}`, ans+`,"requestState":"s"`)),
			s2c(1, done("1")),
		},
		calls:    []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 1 tools/call[t] ok modern op=0/2"},
		ops:      []string{"tools/call[t] ok root=0 rounds=0:root,1:strong"},
		findings: []string{"mrtr-retry-same-id@3"},
	}, {
		name: "strong match with different arguments or target",
		steps: []step{
			c2s(0, tool("1", "t", `{"n":1}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "s")),
			c2s(1, tool("2", "t", `{"n":2}`, ans+`,"requestState":"s"`)),
			s2c(1, inputRequired("2", elicit("a"), "s2")),
			c2s(1, tool("3", "u", `{"n":2}`, ans+`,"requestState":"s2"`)),
			s2c(1, done("3")),
		},
		calls: []string{
			"c2s 1 tools/call[t] input-required modern op=0/1",
			"c2s 2 tools/call[t] input-required modern op=0/2",
			"c2s 3 tools/call[u] ok modern op=0/3",
		},
		ops:      []string{"tools/call[t] ok root=0 rounds=0:root,1:strong,2:strong"},
		findings: []string{"mrtr-retry-mismatch@3", "mrtr-retry-mismatch@5"},
	}, {
		name: "input_required on a method that cannot be retried",
		steps: []step{
			c2s(0, req("1", "tools/list", `{`+meta+`}`)),
			s2c(1, inputRequired("1", elicit("a"), "s")),
		},
		calls:    []string{"c2s 1 tools/list input-required modern"},
		findings: []string{"mrtr-not-retryable@2"},
	}, {
		name: "orphan retries: nothing to pair with",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, `,"requestState":"from-before"`)),
			s2c(1, done("1")),
			c2s(1, tool("2", "t", `{}`, ans)),
			s2c(1, done("2")),
		},
		calls:    []string{"c2s 1 tools/call[t] ok modern", "c2s 2 tools/call[t] ok modern"},
		findings: []string{"unpaired-retry@1", "unpaired-retry@3"},
	}, {
		name: "a retry that does not answer the round's keys does not pair heuristically",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("b"), "")),
			c2s(1, tool("2", "t", `{}`, ans)),
			c2s(1, tool("3", "t", `{"other":true}`, `,"inputResponses":{"b":{"action":"decline"}}`)),
		},
		calls: []string{
			"c2s 1 tools/call[t] input-required modern op=0/1",
			"c2s 2 tools/call[t] pending modern",
			"c2s 3 tools/call[t] pending modern",
		},
		ops:      []string{"tools/call[t] input-required root=0 rounds=0:root"},
		findings: []string{"unpaired-retry@3", "unpaired-retry@4"},
	}, {
		name: "interim result never retried, and a fresh call with the same arguments",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "s")),
			c2s(1, tool("2", "t", `{}`, "")),
			s2c(1, done("2")),
		},
		calls: []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern"},
		ops:   []string{"tools/call[t] input-required root=0 rounds=0:root"},
	}, {
		name: "concurrent identical operations: the most recent interim pairs first",
		steps: []step{
			c2s(0, tool("1", "t", `{}`, "")),
			c2s(0, tool("2", "t", `{}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			s2c(1, inputRequired("2", elicit("a"), "")),
			c2s(1, tool("3", "t", `{}`, ans)),
			c2s(1, tool("4", "t", `{}`, ans)),
			s2c(1, done("4")),
			s2c(1, errRes("3", -32602, "bad")),
		},
		calls: []string{
			"c2s 1 tools/call[t] input-required modern op=0/1",
			"c2s 2 tools/call[t] input-required modern op=1/1",
			"c2s 3 tools/call[t] error modern op=1/2",
			"c2s 4 tools/call[t] ok modern op=0/2",
		},
		ops: []string{
			"tools/call[t] ok root=0 rounds=0:root,3:heuristic",
			"tools/call[t] error root=1 rounds=1:root,2:heuristic",
		},
	}, {
		name: "the same requestState on two live interims falls back to the heuristic",
		steps: []step{
			c2s(0, tool("1", "t", `{"n":1}`, "")),
			c2s(0, tool("2", "t", `{"n":2}`, "")),
			s2c(1, inputRequired("1", elicit("a"), "same")),
			s2c(1, inputRequired("2", elicit("a"), "same")),
			c2s(1, tool("3", "t", `{"n":1}`, ans+`,"requestState":"same"`)),
		},
		calls: []string{
			"c2s 1 tools/call[t] input-required modern op=0/1",
			"c2s 2 tools/call[t] input-required modern op=1/1",
			"c2s 3 tools/call[t] pending modern op=0/2",
		},
		ops: []string{
			"tools/call[t] pending root=0 rounds=0:root,2:heuristic",
			"tools/call[t] input-required root=1 rounds=1:root",
		},
	}, {
		name: "prompts/get and resources/read, state-only (load-shedding) interim",
		steps: []step{
			c2s(0, req("1", "prompts/get", `{"name":"p",`+meta+`}`)),
			s2c(1, inputRequired("1", "", "shed")),
			c2s(1, req("2", "prompts/get", `{"name":"p","requestState":"shed",`+meta+`}`)),
			s2c(1, res("2", `{"resultType":"complete","messages":[]}`)),
			c2s(0, req("3", "resources/read", `{"uri":"file:///x",`+meta+`}`)),
			s2c(1, inputRequired("3", `{"ws":{"method":"roots/list"}}`, "")),
			c2s(1, req("4", "resources/read", `{"uri":"file:///x","inputResponses":{"ws":{"roots":[]}},`+meta+`}`)),
			s2c(1, res("4", `{"resultType":"complete","contents":[]}`)),
		},
		calls: []string{
			"c2s 1 prompts/get[p] input-required modern op=0/1",
			"c2s 2 prompts/get[p] ok modern op=0/2",
			"c2s 3 resources/read[file:///x] input-required modern op=1/1",
			"c2s 4 resources/read[file:///x] ok modern op=1/2",
		},
		ops: []string{
			"prompts/get[p] ok root=0 rounds=0:root,1:strong",
			"resources/read[file:///x] ok root=2 rounds=2:root,3:heuristic",
		},
	}})
}

func TestMRTRRoundsAndDurations(t *testing.T) {
	t.Parallel()
	inputs := `{"roots":{"method":"roots/list"},"ask":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x"}},` +
		`"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}}`
	snap := load(t, []step{
		c2s(0, tool("1", "t", `{}`, "")),
		s2c(40, inputRequired("1", inputs, "s1")),
		c2s(900, tool("2", "t", `{}`, `,"inputResponses":{"roots":{"roots":[]},"ask":{"action":"accept"},"llm":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}},"requestState":"s1"`)),
		s2c(60, inputRequired("2", "", "s2")),
		c2s(100, tool("3", "t", `{}`, `,"requestState":"s2"`)),
		s2c(25, done("3")),
	})
	want := []Operation{{
		Index: 0, Method: "tools/call", Target: "t", Root: 0, RootID: snap.Calls.Slice()[0].ID,
		Rounds: []Round{
			{Call: 0, ID: snap.Calls.Slice()[0].ID, Pairing: PairRoot, HasState: true, InputRequests: []InputRequest{
				{Key: "ask", Method: "elicitation/create"}, {Key: "llm", Method: "sampling/createMessage"}, {Key: "roots", Method: "roots/list"},
			}},
			{Call: 1, ID: snap.Calls.Slice()[1].ID, Pairing: PairStrong, HasState: true, InputRequests: []InputRequest{}},
			{Call: 2, ID: snap.Calls.Slice()[2].ID, Pairing: PairStrong},
		},
		Status: StatusOK, Start: t0, End: t0.Add(1125e6),
		DurationMS: 1125, WaitMS: 1000, ToolMS: 125,
	}}
	if diff := cmp.Diff(want, snap.Operations.Slice(), cmp.AllowUnexported(snap.Calls.Slice()[0].ID)); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
	if got := snap.Calls.Slice()[1].DurationMS; got != 60 {
		t.Errorf("round 2 call duration = %v, want 60", got)
	}
}
