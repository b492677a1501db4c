package sdk_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestModernElicitation runs a 2026-07-28 go-sdk client and server through
// mcptrail: a form elicitation answered accept, decline and cancel on three
// calls, then a chained two-round tool. The SDK handles every MRTR retry
// itself; the test then checks what the store made of the capture.
func TestModernElicitation(t *testing.T) {
	t.Parallel()
	runLaunches(t, testModernElicitation)
}

func testModernElicitation(t *testing.T, l launch) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	ans := newAnswerer()
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion},
		&mcp.ClientOptions{ElicitationHandler: ans.Handle})
	p := connectProxied(ctx, t, client, l, "2026-07-28")
	if got := p.cs.InitializeResult().ProtocolVersion; got != "2026-07-28" {
		t.Fatalf("negotiated protocol version %q, want 2026-07-28", got)
	}

	type toolOutcome struct {
		Text    string
		IsError bool
	}
	var got []toolOutcome
	for _, action := range []string{"accept", "decline", "cancel"} {
		ans.Queue(action)
		text, isErr := p.callTool(ctx, t, "confirm")
		got = append(got, toolOutcome{text, isErr})
	}
	ans.Queue("accept", "accept")
	text, isErr := p.callTool(ctx, t, "chained")
	got = append(got, toolOutcome{text, isErr})
	p.close(t)

	want := []toolOutcome{
		{"confirm: accepted", false},
		{"confirm: declined", true},
		{"confirm: cancelled", true},
		{"step2: accepted", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("tool results through mcptrail (-want +got):\n%s", diff)
	}
	wantAsked := []string{"Proceed?", "Proceed?", "Proceed?", "Step 1: continue?", "Step 2: really continue?"}
	if diff := cmp.Diff(wantAsked, ans.Asked()); diff != "" {
		t.Errorf("questions the client's elicitation handler was asked (-want +got):\n%s", diff)
	}

	x := runExport(t, p.capture)
	checkModernSession(t, x)
	checkModernCalls(t, x)
	checkModernOperations(t, x)
	checkModernLedger(t, x)
	x.checkCounts(t)
	x.checkFindings(t)
}

func checkModernSession(t *testing.T, x *export) {
	t.Helper()
	s := x.Session
	type sessionView struct {
		Transport        string
		Signal           string
		Format           int
		Ended            bool
		Exit             int
		Eras             []string
		ProtocolVersions []string
		Client           string
		Form, URL        bool
		Server           string
		Torn             bool
		Corrupt          int
		Lost             int64
	}
	got := sessionView{
		Transport: s.Transport, Signal: s.Signal, Format: s.Format, Ended: s.Ended, Exit: -1,
		Eras: s.Eras, ProtocolVersions: s.ProtocolVersions,
		Client: s.Client.Name + "/" + s.Client.Version, Server: s.Server.Name + "/" + s.Server.Version,
		Torn: s.Damage.Torn, Corrupt: s.Damage.Corrupt, Lost: s.LostFrames + s.LostBytes,
	}
	if s.Exit != nil {
		got.Exit = *s.Exit
	}
	if e := s.Client.Elicitation; e != nil {
		got.Form, got.URL = e.Form, e.URL
	}
	want := sessionView{
		Transport: "stdio", Format: 1, Ended: true, Exit: 0,
		Eras: []string{"modern"}, ProtocolVersions: []string{"2026-07-28"},
		Client: clientName + "/" + clientVersion, Form: true, URL: false,
		Server: "e2e-sdk-server/0.3.0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session (-want +got):\n%s", diff)
	}
}

// callView is the part of a call the tests compare as a table.
type callView struct {
	Dir, Method, Target, Status, ResultType string
	Operation, Round                        int // -1: not in an operation
}

func viewCalls(x *export) []callView {
	var out []callView
	for _, c := range x.Calls {
		v := callView{Dir: c.Dir, Method: c.Method, Target: c.Target, Status: c.Status, ResultType: c.ResultType, Operation: -1}
		if c.Operation != nil {
			v.Operation, v.Round = *c.Operation, c.Round
		}
		out = append(out, v)
	}
	return out
}

func checkModernCalls(t *testing.T, x *export) {
	t.Helper()
	const ir, ok, te = "input-required", "ok", "tool-error"
	tc := func(target, status, rt string, op, round int) callView {
		return callView{"c2s", "tools/call", target, status, rt, op, round}
	}
	want := []callView{
		{"c2s", "server/discover", "", ok, "complete", -1, 0},
		tc("confirm", ir, "input_required", 0, 1), tc("confirm", ok, "complete", 0, 2),
		tc("confirm", ir, "input_required", 1, 1), tc("confirm", te, "complete", 1, 2),
		tc("confirm", ir, "input_required", 2, 1), tc("confirm", te, "complete", 2, 2),
		tc("chained", ir, "input_required", 3, 1), tc("chained", ir, "input_required", 3, 2),
		tc("chained", ok, "complete", 3, 3),
	}
	if diff := cmp.Diff(want, viewCalls(x)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	for i, c := range x.Calls {
		if c.Index != i {
			t.Errorf("calls[%d].index = %d", i, c.Index)
		}
		if c.Era != "modern" || c.ProtocolVersion != "2026-07-28" {
			t.Errorf("call %d: era %q, protocol version %q; want modern 2026-07-28", i, c.Era, c.ProtocolVersion)
		}
		if c.ResponseSeq <= c.RequestSeq {
			t.Errorf("call %d: response seq %d not above request seq %d", i, c.ResponseSeq, c.RequestSeq)
		}
		if c.Parent != nil {
			t.Errorf("call %d: parent %d on a client call", i, *c.Parent)
		}
		req, resp := x.frameAt(t, c.RequestSeq), x.frameAt(t, c.ResponseSeq)
		if req.Dir != "c2s" || resp.Dir != "s2c" || string(req.ID) != string(c.ID) || string(resp.ID) != string(c.ID) {
			t.Errorf("call %d (id %s): request frame %s id %s, response frame %s id %s", i, c.ID, req.Dir, req.ID, resp.Dir, resp.ID)
		}
		if d := ms(resp.Time.Sub(req.Time)); c.DurationMS < 0 || math.Abs(c.DurationMS-d) > 0.002 {
			t.Errorf("call %d: duration %.3f ms, the frame times give %.6f ms", i, c.DurationMS, d)
		}
	}
}

func checkModernOperations(t *testing.T, x *export) {
	t.Helper()
	type opView struct {
		Method, Target, Status string
		Root                   int
		Pairings               []string
		Asked                  []string // key:method of each non-final round
		HasState               []bool
	}
	var got []opView
	for _, op := range x.Operations {
		v := opView{Method: op.Method, Target: op.Target, Status: op.Status, Root: op.Root}
		for _, r := range op.Rounds {
			v.Pairings = append(v.Pairings, r.Pairing)
			v.HasState = append(v.HasState, r.HasState)
			for _, in := range r.InputRequests {
				v.Asked = append(v.Asked, in.Key+":"+in.Method)
			}
		}
		got = append(got, v)
	}
	confirm := func(root int, status string) opView {
		return opView{"tools/call", "confirm", status, root, []string{"root", "strong"},
			[]string{"confirm:elicitation/create"}, []bool{true, false}}
	}
	want := []opView{
		confirm(1, "ok"), confirm(3, "tool-error"), confirm(5, "tool-error"),
		{"tools/call", "chained", "ok", 7, []string{"root", "strong", "strong"},
			[]string{"step1:elicitation/create", "step2:elicitation/create"}, []bool{true, true, false}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
	for _, op := range x.Operations {
		checkOperationIDs(t, x, op)
		checkOperationState(t, x, op)
		checkOperationTimes(t, x, op)
	}
}

// checkOperationIDs checks that an operation's root and rounds point at the
// right calls, and that each retry has a new id.
func checkOperationIDs(t *testing.T, x *export, op exportOperation) {
	t.Helper()
	if op.Root < 0 || op.Root >= len(x.Calls) || len(op.Rounds) == 0 {
		t.Errorf("operation %d: root %d, %d rounds", op.Index, op.Root, len(op.Rounds))
		return
	}
	if string(op.RootID) != string(x.Calls[op.Root].ID) || op.Rounds[0].Call != op.Root {
		t.Errorf("operation %d: root_id %s, rounds[0].call %d; root call %d has id %s", op.Index, op.RootID, op.Rounds[0].Call, op.Root, x.Calls[op.Root].ID)
	}
	seen := map[string]bool{}
	for i, r := range op.Rounds {
		if r.Call < 0 || r.Call >= len(x.Calls) {
			t.Errorf("operation %d round %d: call %d out of range", op.Index, i, r.Call)
			continue
		}
		c := x.Calls[r.Call]
		if string(r.ID) != string(c.ID) || c.Operation == nil || *c.Operation != op.Index || c.Round != i+1 {
			t.Errorf("operation %d round %d: id %s, call %d has id %s, operation %v, round %d", op.Index, i, r.ID, r.Call, c.ID, c.Operation, c.Round)
		}
		if seen[string(r.ID)] {
			t.Errorf("operation %d: id %s reused across rounds", op.Index, r.ID)
		}
		seen[string(r.ID)] = true
	}
}

// checkOperationState checks on the wire what a "strong" pairing claims:
// each retry echoes, byte for byte, the requestState of the interim result
// before it, and has_state says whether that result carried one.
func checkOperationState(t *testing.T, x *export, op exportOperation) {
	t.Helper()
	prev := ""
	for i, r := range op.Rounds {
		c := x.Calls[r.Call]
		var req struct {
			Params struct {
				RequestState *string `json:"requestState"`
			} `json:"params"`
		}
		var resp struct {
			Result struct {
				RequestState *string `json:"requestState"`
			} `json:"result"`
		}
		unmarshalMsg(t, x.frameAt(t, c.RequestSeq), &req)
		unmarshalMsg(t, x.frameAt(t, c.ResponseSeq), &resp)
		echoed := deref(req.Params.RequestState)
		if i > 0 && (req.Params.RequestState == nil || echoed != prev) {
			t.Errorf("operation %d round %d: retry requestState %q, interim result's %q", op.Index, i+1, echoed, prev)
		}
		if i > 0 && r.Pairing != "strong" {
			t.Errorf("operation %d round %d: pairing %q for a retry echoing requestState %q", op.Index, i+1, r.Pairing, echoed)
		}
		prev = deref(resp.Result.RequestState)
		if r.HasState != (resp.Result.RequestState != nil) {
			t.Errorf("operation %d round %d: has_state %v, result requestState %v", op.Index, i+1, r.HasState, resp.Result.RequestState)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// checkOperationTimes checks duration ≥ wait ≥ the client's think time,
// tool = duration − wait, and that all three agree with the frame times
// in the capture: duration runs from the root request to the final
// answer, wait sums the gaps from each interim result to its retry.
func checkOperationTimes(t *testing.T, x *export, op exportOperation) {
	t.Helper()
	minWait := float64(handlerDelay.Milliseconds()) * float64(len(op.Rounds)-1)
	if op.WaitMS < minWait || op.DurationMS < op.WaitMS {
		t.Errorf("operation %d: duration %.3f ms, wait %.3f ms; want duration ≥ wait ≥ %.0f ms", op.Index, op.DurationMS, op.WaitMS, minWait)
	}
	if op.ToolMS < 0 || math.Abs(op.ToolMS-(op.DurationMS-op.WaitMS)) > 0.01 {
		t.Errorf("operation %d: tool %.3f ms, want duration − wait = %.3f ms", op.Index, op.ToolMS, op.DurationMS-op.WaitMS)
	}
	rounds := op.Rounds
	first := x.Calls[rounds[0].Call]
	last := x.Calls[rounds[len(rounds)-1].Call]
	duration := ms(x.frameAt(t, last.ResponseSeq).Time.Sub(x.frameAt(t, first.RequestSeq).Time))
	var wait float64
	for i := 1; i < len(rounds); i++ {
		interim := x.frameAt(t, x.Calls[rounds[i-1].Call].ResponseSeq)
		retry := x.frameAt(t, x.Calls[rounds[i].Call].RequestSeq)
		wait += ms(retry.Time.Sub(interim.Time))
	}
	const tolerance = 0.002 // the export rounds to the microsecond
	if math.Abs(op.DurationMS-duration) > tolerance || math.Abs(op.WaitMS-wait) > tolerance {
		t.Errorf("operation %d: duration %.3f ms, wait %.3f ms; the frame times give %.6f and %.6f", op.Index, op.DurationMS, op.WaitMS, duration, wait)
	}
}

// ms converts d to fractional milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
