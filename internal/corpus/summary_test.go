package corpus

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// counted is what the summary's counts say of one method or tool.
type counted struct{ Count, Rounds int }

// summaryProblems lists how the counts of the JSON export's summary differ
// from its own calls and operations: an operation is one call of its method
// (and tool) with all its rounds, any other call one call of one round. It
// is derived from the export's calls, so -update cannot bless a drift.
func summaryProblems(js []byte) []string {
	type stat struct {
		Name   string `json:"name"`
		Count  int    `json:"count"`
		Rounds int    `json:"rounds"`
	}
	var x struct {
		Calls []struct {
			Dir       string `json:"dir"`
			Method    string `json:"method"`
			Target    string `json:"target"`
			Operation *int   `json:"operation"`
		} `json:"calls"`
		Operations []struct {
			Method string `json:"method"`
			Target string `json:"target"`
			Rounds []struct {
				Call int `json:"call"`
			} `json:"rounds"`
		} `json:"operations"`
		Summary struct {
			Methods []stat `json:"methods"`
			Tools   []stat `json:"tools"`
			Server  []stat `json:"server_requests"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(js, &x); err != nil {
		return []string{fmt.Sprintf("decoding the JSON export: %v", err)}
	}
	methods, tools, server := map[string]counted{}, map[string]counted{}, map[string]counted{}
	add := func(method, target string, rounds int) {
		m := methods[method]
		methods[method] = counted{m.Count + 1, m.Rounds + rounds}
		if method == "tools/call" {
			t := tools[target]
			tools[target] = counted{t.Count + 1, t.Rounds + rounds}
		}
	}
	for _, c := range x.Calls {
		switch {
		case c.Operation != nil:
		case c.Dir == "s2c":
			s := server[c.Method]
			server[c.Method] = counted{s.Count + 1, s.Rounds + 1}
		default:
			add(c.Method, c.Target, 1)
		}
	}
	for _, o := range x.Operations {
		add(o.Method, o.Target, len(o.Rounds))
	}
	got := func(stats []stat) map[string]counted {
		out := map[string]counted{}
		for _, s := range stats {
			out[s.Name] = counted{s.Count, s.Rounds}
		}
		return out
	}
	var problems []string
	if diff := cmp.Diff(methods, got(x.Summary.Methods), cmpopts.EquateEmpty()); diff != "" {
		problems = append(problems, "summary.methods counts (-from calls and operations +exported):\n"+diff)
	}
	if diff := cmp.Diff(tools, got(x.Summary.Tools), cmpopts.EquateEmpty()); diff != "" {
		problems = append(problems, "summary.tools counts (-from calls and operations +exported):\n"+diff)
	}
	if diff := cmp.Diff(server, got(x.Summary.Server), cmpopts.EquateEmpty()); diff != "" {
		problems = append(problems, "summary.server_requests counts (-from calls +exported):\n"+diff)
	}
	return problems
}

// TestSummaryProblemsCatchesRounds proves the check fails when the rounds
// of an operation are counted as calls, and passes when it is one call.
func TestSummaryProblemsCatchesRounds(t *testing.T) {
	t.Parallel()
	const body = `"calls":[{"method":"tools/call","target":"t","operation":0},{"method":"tools/call","target":"t","operation":0},
		{"method":"tools/list"}],
		"operations":[{"method":"tools/call","target":"t","rounds":[{"call":0},{"call":1}]}],`
	good := `{` + body + `"summary":{"methods":[{"name":"tools/call","count":1,"rounds":2},{"name":"tools/list","count":1,"rounds":1}],
		"tools":[{"name":"t","count":1,"rounds":2}]}}`
	if p := summaryProblems([]byte(good)); len(p) != 0 {
		t.Errorf("one operation of two rounds counted once: problems %q, want none", p)
	}
	rounds := `{` + body + `"summary":{"methods":[{"name":"tools/call","count":2,"rounds":2},{"name":"tools/list","count":1,"rounds":1}],
		"tools":[{"name":"t","count":2,"rounds":2}]}}`
	if p := summaryProblems([]byte(rounds)); len(p) != 2 {
		t.Errorf("rounds counted as calls: %d problems %q, want 2 (methods and tools)", len(p), p)
	}
}
