package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"
)

// expectation is the hand-written statement of what a corpus transcript is
// meant to show, kept in <name>.expect.toml beside its goldens. The JSON
// export must show exactly these findings (rule id -> count; a rule not
// listed must not be raised), these ledger rows and these operations, in
// order. It is written from the transcript, not from the export, so a
// golden refresh with -update cannot bless a regression.
type expectation struct {
	// Intent says in a sentence what the transcript exercises.
	Intent string `toml:"intent"`
	// Findings maps each rule id raised to how many times; nil means none.
	Findings map[string]int `toml:"findings"`
	// Ledger lists every elicitation ledger row in export order.
	Ledger []ledgerExpect `toml:"ledger"`
	// Operations lists every multi-round operation in export order.
	Operations []operationExpect `toml:"operations"`
	// Reads lists every read the catalog kept (a skill file checked
	// against its entry, a UI resource) in export order; nil means none.
	Reads []readExpect `toml:"reads"`
	// Apps lists every app tool (a tool naming a UI resource) in export
	// order; nil means none.
	Apps []appExpect `toml:"apps"`
	// SSEEndpoint is the endpoint of the 2024-11-05 HTTP+SSE transport the
	// session used (session.http_sse); "" means it used none.
	SSEEndpoint string `toml:"sse_endpoint"`
}

// readExpect is one catalog read: its uri and verdict ("" for a UI
// resource read).
type readExpect struct {
	URI     string `toml:"uri"`
	Verdict string `toml:"verdict"`
}

// appExpect is one app tool: its UI resource and how often the host read
// it (0: the app never rendered).
type appExpect struct {
	Tool     string `toml:"tool"`
	Resource string `toml:"resource"`
	Reads    int    `toml:"reads"`
}

// ledgerExpect is one ledger row. A field left out of the TOML is not
// checked; Action "" means the row has no action.
type ledgerExpect struct {
	Root   *string `toml:"root"` // the root request's id, "" for none
	Key    *string `toml:"key"`  // the inputRequests key, "" for legacy rows
	Mode   string  `toml:"mode"`
	Action *string `toml:"action"`
	Status *string `toml:"status"`
	// Observations are the row's observations in export order; always
	// checked, nil meaning none.
	Observations []string `toml:"observations"`
}

// operationExpect is one operation: its root request id and the pairing of
// each round ("root", then "strong", "heuristic" or "task"), the taskId of
// the task it became ("" for none, always checked), and when named, the
// task's latest status and the operation's status.
type operationExpect struct {
	Root       string   `toml:"root"`
	Pairing    []string `toml:"pairing"`
	Task       string   `toml:"task"`
	TaskStatus *string  `toml:"task_status"`
	Status     *string  `toml:"status"`
}

// exported is the part of the JSON export the expectations look at.
type exported struct {
	Session struct {
		HTTPSSE *struct {
			Endpoint string `json:"endpoint"`
		} `json:"http_sse"`
	} `json:"session"`
	Findings []struct {
		Rule string `json:"rule"`
	} `json:"findings"`
	Elicitations []struct {
		Root *struct {
			ID json.RawMessage `json:"id"`
		} `json:"root"`
		Key    *string  `json:"key"`
		Mode   string   `json:"mode"`
		Action string   `json:"action"`
		Status string   `json:"status"`
		Obs    []string `json:"observations"`
	} `json:"elicitations"`
	Operations []struct {
		RootID json.RawMessage `json:"root_id"`
		Status string          `json:"status"`
		Task   *struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"task"`
		Rounds []struct {
			Pairing string `json:"pairing"`
		} `json:"rounds"`
	} `json:"operations"`
	Catalog struct {
		Reads []struct {
			URI     string `json:"uri"`
			Verdict string `json:"verdict"`
		} `json:"reads"`
		Apps []struct {
			Tool     string `json:"tool"`
			Resource string `json:"resource_uri"`
			Reads    int    `json:"reads"`
		} `json:"apps"`
	} `json:"catalog"`
}

func loadExpectation(t *testing.T, name string) expectation {
	t.Helper()
	return loadExpectationIn(t, transcriptDir, name)
}

// loadExpectationIn reads dir/name.expect.toml.
func loadExpectationIn(t *testing.T, dir, name string) expectation {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name+".expect.toml"))
	if err != nil {
		t.Fatalf("reading expectation: %v", err)
	}
	var e expectation
	dec := toml.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("decoding %s.expect.toml: %v", name, err)
	}
	if e.Intent == "" {
		t.Errorf("%s.expect.toml has no intent", name)
	}
	return e
}

// idText renders a JSON-RPC id as the expectation writes it: a string
// without quotes, a number as its digits, absent as "".
func idText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// checkExpectation fails t unless the JSON export js shows what the
// transcript's expectation says, and its summary counts its calls.
func checkExpectation(t *testing.T, e expectation, js []byte) {
	t.Helper()
	for _, p := range expectationProblems(e, js) {
		t.Error(p)
	}
	for _, p := range summaryProblems(js) {
		t.Error(p)
	}
}

// expectationProblems lists how the JSON export js differs from e.
func expectationProblems(e expectation, js []byte) []string {
	var x exported
	if err := json.Unmarshal(js, &x); err != nil {
		return []string{fmt.Sprintf("decoding the JSON export: %v", err)}
	}
	var problems []string
	findings := map[string]int{}
	for _, f := range x.Findings {
		findings[f.Rule]++
	}
	want := e.Findings
	if want == nil {
		want = map[string]int{}
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		problems = append(problems, "findings by rule id (-expected +exported):\n"+diff)
	}
	switch sse := x.Session.HTTPSSE; {
	case sse == nil && e.SSEEndpoint != "":
		problems = append(problems, fmt.Sprintf("no session.http_sse, want the endpoint %s", e.SSEEndpoint))
	case sse != nil && sse.Endpoint != e.SSEEndpoint:
		problems = append(problems, fmt.Sprintf("session.http_sse endpoint %q, want %q", sse.Endpoint, e.SSEEndpoint))
	}
	var ledger []ledgerExpect
	for i, r := range x.Elicitations {
		var want ledgerExpect
		if i < len(e.Ledger) {
			want = e.Ledger[i]
		}
		root, key, action, status := "", "", r.Action, r.Status
		if r.Root != nil {
			root = idText(r.Root.ID)
		}
		if r.Key != nil {
			key = *r.Key
		}
		got := ledgerExpect{Mode: r.Mode}
		if len(r.Obs) > 0 {
			got.Observations = r.Obs
		}
		// Only the fields the expectation names are compared.
		got.Root = pick(want.Root, root)
		got.Key = pick(want.Key, key)
		got.Action = pick(want.Action, action)
		got.Status = pick(want.Status, status)
		ledger = append(ledger, got)
	}
	if diff := cmp.Diff(e.Ledger, ledger); diff != "" {
		problems = append(problems, "ledger rows (-expected +exported):\n"+diff)
	}
	var ops []operationExpect
	for i, o := range x.Operations {
		var want operationExpect
		if i < len(e.Operations) {
			want = e.Operations[i]
		}
		op := operationExpect{Root: idText(o.RootID), Status: pick(want.Status, o.Status)}
		taskStatus := ""
		if o.Task != nil {
			op.Task, taskStatus = o.Task.ID, o.Task.Status
		}
		op.TaskStatus = pick(want.TaskStatus, taskStatus)
		for _, r := range o.Rounds {
			op.Pairing = append(op.Pairing, r.Pairing)
		}
		ops = append(ops, op)
	}
	if diff := cmp.Diff(e.Operations, ops); diff != "" {
		problems = append(problems, "operations (-expected +exported):\n"+diff)
	}
	var reads []readExpect
	for _, r := range x.Catalog.Reads {
		reads = append(reads, readExpect{URI: r.URI, Verdict: r.Verdict})
	}
	if diff := cmp.Diff(e.Reads, reads); diff != "" {
		problems = append(problems, "catalog reads (-expected +exported):\n"+diff)
	}
	var apps []appExpect
	for _, a := range x.Catalog.Apps {
		apps = append(apps, appExpect{Tool: a.Tool, Resource: a.Resource, Reads: a.Reads})
	}
	if diff := cmp.Diff(e.Apps, apps); diff != "" {
		problems = append(problems, "app tools (-expected +exported):\n"+diff)
	}
	return problems
}

// pick returns &v when the expectation names the field (want != nil).
func pick(want *string, v string) *string {
	if want == nil {
		return nil
	}
	return &v
}

// TestCorpusExpectations checks every transcript's expectation against its
// JSON golden, and that no transcript lacks one; TestCorpus checks the same
// expectation against the live export, so -update cannot hide a change.
func TestCorpusExpectations(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(transcriptDir, "*.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	expects, err := filepath.Glob(filepath.Join(transcriptDir, "*.expect.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(expects) != len(paths) {
		t.Errorf("%d expectations for %d transcripts", len(expects), len(paths))
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := loadExpectation(t, name)
			js, err := os.ReadFile(filepath.Join(transcriptDir, name+".json.golden"))
			if err != nil {
				t.Fatal(err)
			}
			checkExpectation(t, e, js)
		})
	}
}

// TestCheckExpectationCatchesDrift proves the check fails on a missing
// finding, an extra finding, a changed ledger action, a lost round, a
// changed skill read verdict and an app tool whose UI went unread.
func TestCheckExpectationCatchesDrift(t *testing.T) {
	t.Parallel()
	accept, answered := "accept", "answered"
	e := expectation{
		Intent:     "drift probe",
		Findings:   map[string]int{"late-result": 1},
		Ledger:     []ledgerExpect{{Mode: "form", Action: &accept, Status: &answered}},
		Operations: []operationExpect{{Root: "1", Pairing: []string{"root", "strong"}}},
		Reads:      []readExpect{{URI: "skill://s/SKILL.md", Verdict: "verified"}},
		Apps:       []appExpect{{Tool: "chart", Resource: "ui://c", Reads: 1}},
	}
	good := `{"findings":[{"rule":"late-result"}],
		"elicitations":[{"mode":"form","action":"accept","status":"answered"}],
		"operations":[{"root_id":1,"rounds":[{"pairing":"root"},{"pairing":"strong"}]}],
		"catalog":{"reads":[{"uri":"skill://s/SKILL.md","verdict":"verified"}],"apps":[{"tool":"chart","resource_uri":"ui://c","reads":1}]}}`
	bad := map[string]string{
		"finding lost":  strings.Replace(good, `{"rule":"late-result"}`, ``, 1),
		"finding added": strings.Replace(good, `{"rule":"late-result"}`, `{"rule":"late-result"},{"rule":"null-id"}`, 1),
		"action":        strings.Replace(good, `"accept"`, `"decline"`, 1),
		"round lost":    strings.Replace(good, `,{"pairing":"strong"}`, ``, 1),
		"row added":     strings.Replace(good, `"status":"answered"}]`, `"status":"answered"},{"mode":"url"}]`, 1),
		"verdict":       strings.Replace(good, `"verified"`, `"digest-mismatch"`, 1),
		"app not read":  strings.Replace(good, `"reads":1`, `"reads":0`, 1),
	}
	if p := expectationProblems(e, []byte(good)); p != nil {
		t.Fatalf("the matching export failed the check: %v", p)
	}
	for name, js := range bad {
		if js == good {
			t.Fatalf("%s: replacement did not apply", name)
		}
		if expectationProblems(e, []byte(js)) == nil {
			t.Errorf("%s: the check passed", name)
		}
	}
}
