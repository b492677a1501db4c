package replay

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// modernCapture has a handshake, a list with a read-only tool, a
// destructive one and one without annotations, a call of each (the last
// an MRTR call with one retry), and a call the client cancelled.
const modernCapture = `{"type":"session","time":"2026-07-28T09:30:00Z","format":1,"session_id":"a1","transport":"stdio"}
{"type":"frame","seq":1,"time":"2026-07-28T09:30:00.001Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}
{"type":"frame","seq":2,"time":"2026-07-28T09:30:00.002Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:30:00.003Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}
{"type":"frame","seq":4,"time":"2026-07-28T09:30:00.004Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"search","annotations":{"readOnlyHint":true}},{"name":"wipe","annotations":{"destructiveHint":true}},{"name":"confirm"}]}}}
{"type":"frame","seq":5,"time":"2026-07-28T09:30:00.005Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"q":"x"}}}}
{"type":"frame","seq":6,"time":"2026-07-28T09:30:00.006Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}}
{"type":"frame","seq":7,"time":"2026-07-28T09:30:00.007Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wipe"}}}
{"type":"frame","seq":8,"time":"2026-07-28T09:30:00.008Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":4,"result":{"content":[]}}}
{"type":"frame","seq":9,"time":"2026-07-28T09:30:00.009Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"confirm","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}
{"type":"frame","seq":10,"time":"2026-07-28T09:30:00.010Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","inputRequests":{"ok":{"method":"elicitation/create","params":{"message":"Sure?"}}},"requestState":"s1"}}}
{"type":"frame","seq":11,"time":"2026-07-28T09:30:00.011Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"confirm","inputResponses":{"ok":{"action":"accept","content":{"ok":true}}},"requestState":"s1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}
{"type":"frame","seq":12,"time":"2026-07-28T09:30:00.012Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete","content":[]}}}
{"type":"frame","seq":13,"time":"2026-07-28T09:30:00.013Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}}
{"type":"frame","seq":14,"time":"2026-07-28T09:30:00.014Z","dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}}
`

// legacyCapture has an initialize handshake and a call interrupted by a
// server-initiated elicitation/create.
const legacyCapture = `{"type":"session","time":"2025-11-25T09:30:00Z","format":1,"session_id":"b2","transport":"stdio"}
{"type":"frame","seq":1,"time":"2025-11-25T09:30:00.001Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}}
{"type":"frame","seq":2,"time":"2025-11-25T09:30:00.002Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}
{"type":"frame","seq":3,"time":"2025-11-25T09:30:00.003Z","dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
{"type":"frame","seq":4,"time":"2025-11-25T09:30:00.004Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book"}}}
{"type":"frame","seq":5,"time":"2025-11-25T09:30:00.005Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}}}
{"type":"frame","seq":6,"time":"2025-11-25T09:30:00.006Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":9,"result":{"action":"accept","content":{"n":2}}}}
{"type":"frame","seq":7,"time":"2025-11-25T09:30:00.007Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"booked"}]}}}
`

// load reads a capture held in memory into a snapshot with its frames.
func load(t *testing.T, text string) *store.Snapshot {
	t.Helper()
	src := bytes.NewReader([]byte(text))
	r, err := capture.NewReader(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(r, &store.Options{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// stepView is what the plan tests compare of a step.
type stepView struct {
	Call       int
	Name, Skip string
	// Gated: the capture's catalog finds the tool destructive (the server's
	// own listing decides when replaying).
	Gated     bool
	Params    string
	Retries   []string
	Answers   []string
	Abandoned bool
}

func viewPlan(p *Plan) []stepView {
	var out []stepView
	for _, s := range p.Steps {
		v := stepView{Call: s.Call, Name: describe(s.Method, s.Target), Skip: s.Skip, Params: string(s.Params), Abandoned: s.Abandoned}
		_, v.Gated = p.recordedVerdict(&s)
		for _, r := range s.Retries {
			v.Retries = append(v.Retries, string(r))
		}
		for _, a := range s.Answers {
			v.Answers = append(v.Answers, a.Method+" "+string(a.Response))
		}
		out = append(out, v)
	}
	return out
}

func TestNewPlan(t *testing.T) {
	t.Parallel()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	modern := load(t, modernCapture)
	cases := []struct {
		name string
		snap *store.Snapshot
		opts *PlanOptions
		era  string
		want []stepView
	}{{
		name: "modern",
		snap: modern,
		era:  store.EraModern,
		want: []stepView{
			{Call: 0, Name: "server/discover", Params: `{` + meta + `}`},
			{Call: 1, Name: "tools/list", Params: `{` + meta + `}`},
			{Call: 2, Name: "tools/call search", Params: `{"name":"search","arguments":{"q":"x"}}`},
			{Call: 3, Name: "tools/call wipe", Gated: true, Params: `{"name":"wipe"}`},
			{Call: 4, Name: "tools/call confirm", Gated: true, Params: `{"name":"confirm",` + meta + `}`,
				Retries: []string{`{"name":"confirm","inputResponses":{"ok":{"action":"accept","content":{"ok":true}}},"requestState":"s1",` + meta + `}`}},
			{Call: 6, Name: "tools/call slow", Skip: SkipCancelled},
		},
	}, {
		name: "only-and-destructive",
		snap: modern,
		opts: &PlanOptions{Only: []string{"wipe"}, AllowDestructive: true},
		era:  store.EraModern,
		want: []stepView{
			{Call: 0, Name: "server/discover", Params: `{` + meta + `}`},
			{Call: 1, Name: "tools/list", Params: `{` + meta + `}`},
			{Call: 2, Name: "tools/call search", Skip: SkipOnly},
			{Call: 3, Name: "tools/call wipe", Params: `{"name":"wipe"}`},
			{Call: 4, Name: "tools/call confirm", Skip: SkipOnly},
			// Left out by --only, not "cancelled": the user asked not to send it.
			{Call: 6, Name: "tools/call slow", Skip: SkipOnly},
		},
	}, {
		name: "legacy",
		snap: load(t, legacyCapture),
		era:  store.EraLegacy,
		want: []stepView{
			{Call: 0, Name: "initialize", Params: `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}`},
			{Call: 1, Name: "tools/call book", Gated: true, Params: `{"name":"book"}`,
				Answers: []string{`elicitation/create {"jsonrpc":"2.0","id":9,"result":{"action":"accept","content":{"n":2}}}`}},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := NewPlan(tc.snap, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if p.Era != tc.era {
				t.Errorf("era %q, want %q", p.Era, tc.era)
			}
			if diff := cmp.Diff(tc.want, viewPlan(p)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewPlanRefuses(t *testing.T) {
	t.Parallel()
	redacted := strings.Replace(modernCapture, `"transport":"stdio"`, `"transport":"stdio","redacted":true`, 1)
	if _, err := NewPlan(load(t, redacted), nil); !errors.Is(err, ErrRedacted) {
		t.Errorf("redacted capture: %v, want ErrRedacted", err)
	}
	if _, err := NewPlan(load(t, redacted), &PlanOptions{AllowRedacted: true}); err != nil {
		t.Errorf("redacted capture with AllowRedacted: %v", err)
	}
	header := strings.SplitAfter(modernCapture, "\n")[0]
	garbage := header + `{"type":"frame","seq":1,"time":"2026-07-28T09:30:00.001Z","dir":"c2s","text":"not json"}` + "\n"
	if _, err := NewPlan(load(t, garbage), nil); !errors.Is(err, ErrNothingToReplay) {
		t.Errorf("capture of an invalid frame: %v, want ErrNothingToReplay", err)
	}
}

func TestWithMembers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		set  []member
		drop []string
		want string
	}{
		{`{"a":1,"b":{"c":2},"d":"x"}`, []member{{"b", []byte(`3`)}}, nil, `{"a":1,"b":3,"d":"x"}`},
		{`{"a":1}`, []member{{"new", []byte(`"v"`)}}, []string{"a"}, `{"new":"v"}`},
		{`{ "k\u0041" : [1, 2] }`, nil, nil, `{"kA":[1, 2]}`},
		{``, []member{{"x", []byte(`true`)}}, nil, `{"x":true}`},
	}
	for _, tc := range cases {
		if got := string(withMembers([]byte(tc.in), tc.set, tc.drop...)); got != tc.want {
			t.Errorf("withMembers(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestPlanParamHeaders: a tools/call recorded over HTTP keeps the
// Mcp-Param-* headers of its envelope (empty when it had none); one
// recorded over stdio has none to keep (nil: HTTP replay derives them),
// and the catalog's x-mcp-header annotations are the plan's bindings.
func TestPlanParamHeaders(t *testing.T) {
	t.Parallel()
	const text = `{"type":"session","time":"2026-07-28T09:30:00Z","format":1,"session_id":"c3","transport":"http"}
{"type":"frame","seq":1,"time":"2026-07-28T09:30:00.001Z","dir":"c2s","http":{"method":"POST","path":"/mcp","headers":{"Mcp-Method":"tools/list"}},"msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}}
{"type":"frame","seq":2,"time":"2026-07-28T09:30:00.002Z","dir":"s2c","http":{"method":"POST","path":"/mcp","status":200},"msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"deploy","inputSchema":{"type":"object","properties":{"env":{"type":"string","x-mcp-header":"Env"}}}}]}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:30:00.003Z","dir":"c2s","http":{"method":"POST","path":"/mcp","headers":{"Mcp-Method":"tools/call","Mcp-Param-Env":"staging"}},"msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"staging"}}}}
{"type":"frame","seq":4,"time":"2026-07-28T09:30:00.004Z","dir":"s2c","http":{"method":"POST","path":"/mcp","status":200},"msg":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}
{"type":"frame","seq":5,"time":"2026-07-28T09:30:00.005Z","dir":"c2s","http":{"method":"POST","path":"/mcp","headers":{"Mcp-Method":"tools/call"}},"msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":{}}}}
{"type":"frame","seq":6,"time":"2026-07-28T09:30:00.006Z","dir":"s2c","http":{"method":"POST","path":"/mcp","status":200},"msg":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}}
`
	p, err := NewPlan(load(t, text), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]string
	for _, st := range p.Steps {
		got = append(got, st.ParamHeaders)
	}
	want := []map[string]string{nil, {"Mcp-Param-Env": "staging"}, {}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParamHeaders (-want +got):\n%s", diff)
	}
	if got[2] == nil {
		t.Error("a call recorded over HTTP without Mcp-Param-* headers has nil ParamHeaders, want empty")
	}
	wantB := map[string][]paramBinding{"deploy": {{path: []string{"env"}, header: "Env"}}}
	if diff := cmp.Diff(wantB, p.bindings, cmp.AllowUnexported(paramBinding{})); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
	s, err := NewPlan(load(t, modernCapture), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range s.Steps {
		if st.ParamHeaders != nil {
			t.Errorf("call %d of a stdio capture has ParamHeaders %v, want nil", st.Call, st.ParamHeaders)
		}
	}
}

// TestWriteSkippedOnly: the calls --only leaves out are not listed as
// skipped for another reason (the cancelled slow call among them); without
// --only the cancelled call is listed.
func TestWriteSkippedOnly(t *testing.T) {
	t.Parallel()
	snap := load(t, modernCapture)
	for _, tc := range []struct {
		name string
		only []string
		want string
	}{
		{"only", []string{"search"}, ""},
		{"all", nil, "skipped call 6 tools/call slow: cancelled in the recording\n"},
	} {
		p, err := NewPlan(snap, &PlanOptions{Only: tc.only})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := p.WriteSkipped(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: WriteSkipped wrote %q, want %q", tc.name, b.String(), tc.want)
		}
	}
}
