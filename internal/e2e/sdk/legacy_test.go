package sdk_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLegacyElicitation runs a 2025-11-25 go-sdk session through mcptrail:
// initialize, then a tool that asks the client mid-call with a
// server-initiated elicitation/create. The store must pair that request
// with the client's response in the server's own id space (the SDK's ids
// collide with the client's) and attribute it to the tools/call in flight.
func TestLegacyElicitation(t *testing.T) {
	t.Parallel()
	runLaunches(t, testLegacyElicitation)
}

func testLegacyElicitation(t *testing.T, l launch) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	ans := newAnswerer()
	ans.Queue("accept")
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion},
		&mcp.ClientOptions{ElicitationHandler: ans.Handle})
	p := connectProxied(ctx, t, client, l, "2025-11-25", "-legacy")
	if got := p.cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Fatalf("negotiated protocol version %q, want 2025-11-25", got)
	}
	text, isErr := p.callTool(ctx, t, "book")
	p.close(t)
	if text != "guests: accepted" || isErr {
		t.Fatalf("book through mcptrail = %q (isError %v), want \"guests: accepted\"", text, isErr)
	}

	x := runExport(t, p.capture)
	s := x.Session
	if diff := cmp.Diff([]string{"legacy"}, s.Eras); diff != "" {
		t.Errorf("session eras (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2025-11-25"}, s.ProtocolVersions); diff != "" {
		t.Errorf("session protocol versions (-want +got):\n%s", diff)
	}
	if s.Client.Name != clientName || s.Client.Version != clientVersion || s.Client.Elicitation == nil || !s.Client.Elicitation.Form {
		t.Errorf("session client = %+v (elicitation %+v), want %s/%s with form elicitation", s.Client, s.Client.Elicitation, clientName, clientVersion)
	}
	if s.Server.Name != "e2e-sdk-server" || s.Server.Version != "0.3.0" {
		t.Errorf("session server = %s/%s, want e2e-sdk-server/0.3.0", s.Server.Name, s.Server.Version)
	}
	if !s.Ended || s.Exit == nil || *s.Exit != 0 {
		t.Errorf("session ended %v, exit %v; want a clean end with exit 0", s.Ended, s.Exit)
	}

	want := []callView{
		{"c2s", "initialize", "", "ok", "", -1, 0},
		{"c2s", "tools/call", "book", "ok", "", -1, 0},
		{"s2c", "elicitation/create", "", "ok", "", -1, 0},
	}
	if diff := cmp.Diff(want, viewCalls(x)); diff != "" {
		t.Fatalf("calls (-want +got):\n%s", diff)
	}
	checkLegacyElicitation(t, x, x.Calls[1], x.Calls[2])
	checkLegacyLedger(t, x, x.Calls[1], x.Calls[2])
	// The SDK numbers its server-initiated requests from 1, like the
	// client's initialize: the store must keep the two id spaces apart.
	if string(x.Calls[2].ID) != string(x.Calls[0].ID) {
		t.Errorf("elicitation/create id %s differs from initialize's %s: the id spaces were not exercised", x.Calls[2].ID, x.Calls[0].ID)
	}
	if diff := cmp.Diff([]string{"How many guests?"}, ans.Asked()); diff != "" {
		t.Errorf("questions the client's elicitation handler was asked (-want +got):\n%s", diff)
	}
	if len(x.Operations) != 0 {
		t.Errorf("%d operations in a legacy session, want none", len(x.Operations))
	}
	for _, c := range x.Calls {
		if c.Era != "legacy" {
			t.Errorf("call %d (%s): era %q, want legacy", c.Index, c.Method, c.Era)
		}
	}
	x.checkCounts(t)
	x.checkFindings(t)
}

// checkLegacyElicitation checks that the server-initiated request el pairs
// with the client's response of the same id and hangs off tool.
func checkLegacyElicitation(t *testing.T, x *export, tool, el exportCall) {
	t.Helper()
	if el.Parent == nil || *el.Parent != tool.Index || el.Attribution != "single-in-flight" {
		t.Errorf("elicitation/create: parent %v, attribution %q; want call %d, single-in-flight", el.Parent, el.Attribution, tool.Index)
	}
	if !(tool.RequestSeq < el.RequestSeq && el.RequestSeq < el.ResponseSeq && el.ResponseSeq < tool.ResponseSeq) {
		t.Errorf("seqs: tools/call %d→%d, elicitation/create %d→%d; want the elicitation nested inside the call",
			tool.RequestSeq, tool.ResponseSeq, el.RequestSeq, el.ResponseSeq)
	}
	req, resp := x.frameAt(t, el.RequestSeq), x.frameAt(t, el.ResponseSeq)
	if req.Dir != "s2c" || req.Method != "elicitation/create" || resp.Dir != "c2s" || resp.Kind != "response" {
		t.Errorf("elicitation frames: request %s %s %s, response %s %s", req.Dir, req.Kind, req.Method, resp.Dir, resp.Kind)
	}
	if string(req.ID) != string(el.ID) || string(resp.ID) != string(el.ID) {
		t.Errorf("elicitation ids: call %s, request frame %s, response frame %s", el.ID, req.ID, resp.ID)
	}
	if el.DurationMS < float64(handlerDelay.Milliseconds()) {
		t.Errorf("elicitation/create took %.3f ms, want ≥ the client's %v think time", el.DurationMS, handlerDelay)
	}
	if el.Era != "legacy" || el.Status != "ok" {
		t.Errorf("elicitation/create: era %q, status %q", el.Era, el.Status)
	}
}
