package mock

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// chained is a 2026-07-28 capture: a tool that asks twice, in two MRTR
// rounds, then completes.
func chained() string {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	ask := func(key string) string {
		return `"inputRequests":{"` + key + `":{"method":"elicitation/create","params":{"message":"` + key + `?","requestedSchema":{"type":"object","properties":{}}}}}`
	}
	return frames(
		`c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"chained",`+meta+`}}`,
		`s2c {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",`+ask("step1")+`,"requestState":"rec-1"}}`,
		`c2s {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chained","requestState":"rec-1","inputResponses":{"step1":{"action":"accept"}},`+meta+`}}`,
		`s2c {"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required",`+ask("step2")+`,"requestState":"rec-2"}}`,
		`c2s {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chained","requestState":"rec-2","inputResponses":{"step2":{"action":"accept"}},`+meta+`}}`,
		`s2c {"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"done"}]}}`,
	)
}

// TestMRTRChain plays a two-round MRTR operation: each interim result
// carries a fresh requestState the mock minted, a retry must echo the
// latest and answer the recorded keys, and the final result follows.
func TestMRTRChain(t *testing.T) {
	t.Parallel()
	m := New(loadScript(t, chained()), nil)
	got := serve(m, `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"chained"}}`)
	if len(got) != 1 || !got[0].final {
		t.Fatalf("root: got %v, want one final message", got)
	}
	s1 := field(t, got[0].msg, "requestState")
	if !strings.HasPrefix(s1, `"mcptrail-mock-`) || s1 == `"rec-1"` {
		t.Fatalf("round 1 requestState = %s, want one the mock minted", s1)
	}
	retry := func(id, state, key string) string {
		got := serve(m, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"chained","requestState":`+state+`,"inputResponses":{"`+key+`":{"action":"accept"}}}}`)
		if len(got) != 1 || !got[0].final {
			t.Fatalf("retry %s: got %v, want one final message", id, got)
		}
		return got[0].msg
	}
	// The recorded state is not one the mock handed out.
	if msg := retry(`"b"`, `"rec-1"`, "step1"); !strings.Contains(msg, `expected a requestState this mock handed out`) {
		t.Errorf("retry with the recorded state: %s", msg)
	}
	// The right state without the recorded key.
	if msg := retry(`"c"`, s1, "other"); !strings.Contains(msg, `expected inputResponses for [\"step1\"], got [\"other\"]`) {
		t.Errorf("retry without the key: %s", msg)
	}
	// A second root call finds the one recorded call used.
	got = serve(m, `{"jsonrpc":"2.0","id":"a2","method":"tools/call","params":{"name":"chained"}}`)
	if msg := got[0].msg; !strings.Contains(msg, "already answered") {
		t.Errorf("a second root: %s", msg)
	}
	msg := retry(`"d"`, s1, "step1")
	s2 := field(t, msg, "requestState")
	if s2 == s1 || !strings.HasPrefix(s2, `"mcptrail-mock-`) || !strings.Contains(msg, `"id":"d"`) {
		t.Fatalf("round 2 = %s, want the live id and a new minted state", msg)
	}
	if msg := retry(`"d2"`, s1, "step1"); !strings.Contains(msg, "expected a requestState this mock handed out") {
		t.Errorf("a spent state was accepted again: %s", msg)
	}
	msg = retry(`"e"`, s2, "step2")
	want := `{"jsonrpc":"2.0","id":"e","result":{"resultType":"complete","content":[{"type":"text","text":"done"}]}}`
	if diff := cmp.Diff(want, msg); diff != "" {
		t.Errorf("final result (-want +got):\n%s", diff)
	}
	if u := m.Unasked(); len(u) != 0 {
		t.Errorf("Unasked() = %q after the whole chain", u)
	}
}

// legacy is a 2025-11-25 capture: a tool call that the server interrupts
// with an elicitation/create, answered, then the result.
func legacy() string {
	return frames(
		`c2s {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}`,
		`s2c {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`,
		`c2s {"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book","arguments":{}}}`,
		`s2c {"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}}`,
		`c2s {"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"n":2}}}`,
		`s2c {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"booked"}]}}`,
	)
}

// TestLegacyElicitation: the recorded server request is sent under an id
// the mock mints, and the call is answered once the client answers it.
func TestLegacyElicitation(t *testing.T) {
	t.Parallel()
	m := New(loadScript(t, legacy()), nil)
	got := serve(m, `{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"other","version":"2"}}}`)
	if len(got) != 1 || !strings.Contains(got[0].msg, `"id":5,"result":{"protocolVersion"`) {
		t.Fatalf("initialize (answered whatever its params): %v", got)
	}
	if got := serve(m, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); len(got) != 0 {
		t.Fatalf("a notification got %v", got)
	}
	var call recorder
	m.Serve([]byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"book","arguments":{}}}`), &call)
	if len(call.got) != 1 || call.got[0].final || !strings.Contains(call.got[0].msg, `"method":"elicitation/create"`) {
		t.Fatalf("tool call: got %v, want the elicitation/create, not final", call.got)
	}
	id := string(member([]byte(call.got[0].msg), "id"))
	// An answer to an id the mock never used is dropped.
	if got := serve(m, `{"jsonrpc":"2.0","id":999,"result":{"action":"accept"}}`); len(got) != 0 {
		t.Fatalf("a stray answer got %v", got)
	}
	if len(call.got) != 1 {
		t.Fatalf("a stray answer continued the call: %v", call.got)
	}
	if got := serve(m, `{"jsonrpc":"2.0","id":`+id+`,"result":{"action":"decline"}}`); len(got) != 0 {
		t.Fatalf("the answer itself got %v", got)
	}
	want := []sent{call.got[0], {`{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"booked"}]}}`, true}}
	if diff := cmp.Diff(want, call.got, cmp.AllowUnexported(sent{})); diff != "" {
		t.Errorf("the call's messages (-want +got):\n%s", diff)
	}
}

// TestHostileScript: a capture with a torn last line, a corrupt line, an
// invalid frame, a reused id and a request never answered loads with
// warnings, and its requests get answers or clear errors.
func TestHostileScript(t *testing.T) {
	t.Parallel()
	text := frames(
		`c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`,
		`c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}`,
		`s2c {"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		`raw this line is not a record`,
		`s2c "just a string"`,
		`c2s {"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	) + `{"type":"frame","seq":9,"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"res`
	s := loadScript(t, text)
	joined := strings.Join(s.Warnings, "\n")
	for _, want := range []string{"1 frame of the capture is not a JSON-RPC message", "has no recorded answer"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q lack %q", s.Warnings, want)
		}
	}
	m := New(s, nil)
	tests := []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"mcptrail mock: tools/call a: the recorded call was never answered"}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"mcptrail mock: tools/list: the recorded call was never answered"}}`},
	}
	for _, tt := range tests {
		got := serve(m, tt.req)
		want := []sent{{tt.want, true}}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(sent{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.req, diff)
		}
	}
}
