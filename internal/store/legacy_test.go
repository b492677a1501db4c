package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

const initReq = `{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}`

func TestLegacy(t *testing.T) {
	t.Parallel()
	runScenarios(t, []scenario{{
		name: "server requests during two client calls are unattributed",
		steps: []step{
			c2s(0, req("0", "initialize", initReq)),
			s2c(1, res("0", `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"2"}}`)),
			c2s(1, req("1", "tools/call", `{"name":"a"}`)),
			c2s(1, req("2", "tools/call", `{"name":"b"}`)),
			s2c(1, req("0", "sampling/createMessage", `{"messages":[],"maxTokens":5}`)),
			c2s(1, res("0", `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)),
			s2c(1, res("2", `{"content":[]}`)),
			s2c(1, req("1", "roots/list", "")),
			c2s(1, errRes("1", -32601, "no roots")),
			s2c(1, res("1", `{"content":[]}`)),
			s2c(1, req("2", "ping", "")),
		},
		calls: []string{
			"c2s 0 initialize ok legacy",
			"c2s 1 tools/call[a] ok legacy",
			"c2s 2 tools/call[b] ok legacy",
			"s2c 0 sampling/createMessage ok legacy parent=-1(unattributed)",
			"s2c 1 roots/list error legacy parent=1(single-in-flight)",
			"s2c 2 ping pending legacy parent=-1(unattributed)",
		},
	}, {
		name: "a call whose id was taken over is no longer in flight",
		steps: []step{
			c2s(0, req("1", "tools/call", `{"name":"a"}`)),
			c2s(1, req("1", "tools/call", `{"name":"b"}`)),
			s2c(1, req("1", "roots/list", "")),
		},
		calls: []string{
			"c2s 1 tools/call[a] pending",
			"c2s 1 tools/call[b] pending",
			"s2c 1 roots/list pending legacy parent=1(single-in-flight)",
		},
		findings: []string{"id-reused-in-flight@2"},
	}, {
		name: "a cancelled call is no longer in flight",
		steps: []step{
			c2s(0, req("1", "tools/call", `{"name":"a"}`)),
			c2s(1, req("2", "tools/call", `{"name":"b"}`)),
			c2s(1, notif("notifications/cancelled", `{"requestId":1}`)),
			s2c(1, req("1", "elicitation/create", `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`)),
			c2s(1, res("1", `{"action":"cancel"}`)),
		},
		calls: []string{
			"c2s 1 tools/call[a] cancelled cancel@3",
			"c2s 2 tools/call[b] pending",
			"s2c 1 elicitation/create ok legacy parent=1(single-in-flight)",
		},
	}})
}

func TestLegacyExactAttribution(t *testing.T) {
	t.Parallel()
	ex := func(id string, st step) step {
		st.http = &capture.HTTP{Exchange: id}
		return st
	}
	snap := load(t, []step{
		ex("e1", c2s(0, req("1", "tools/call", `{"name":"a"}`))),
		ex("e2", c2s(0, req("2", "tools/call", `{"name":"b"}`))),
		ex("e2", s2c(1, req("9", "elicitation/create", `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`))),
		ex("e3", c2s(1, res("9", `{"action":"decline"}`))),
		ex("e9", s2c(1, req("10", "ping", ""))),
	})
	want := []string{
		"c2s 1 tools/call[a] pending",
		"c2s 2 tools/call[b] pending",
		"s2c 9 elicitation/create ok legacy parent=1(exact)",
		"s2c 10 ping pending legacy parent=-1(unattributed)",
	}
	if diff := cmp.Diff(want, callLines(snap.Calls.Slice())); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestEraAndCapabilities(t *testing.T) {
	t.Parallel()
	discover := `{"jsonrpc":"2.0","id":"probe","method":"server/discover","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"acme","version":"3.2.0"},` +
		`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`
	discovered := res(`"probe"`, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},`+
		`"ttlMs":1,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"deployer","version":"0.9.1"}}}`)
	urlOnly := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}}}}`
	tests := []struct {
		name   string
		steps  []step
		calls  []string
		client Peer
		server Peer
		eras   []string
		vers   []string
	}{{
		name:   "modern: discover, elicitation {} means form only",
		steps:  []step{c2s(0, discover), s2c(1, discovered)},
		calls:  []string{`c2s "probe" server/discover ok modern`},
		client: Peer{Name: "acme", Version: "3.2.0", Capabilities: []byte(`{"elicitation":{}}`), ElicitForm: true},
		server: Peer{Name: "deployer", Version: "0.9.1", Capabilities: []byte(`{"tools":{}}`), SupportedVersions: []string{"2026-07-28"}},
		eras:   []string{EraModern}, vers: []string{"2026-07-28"},
	}, {
		name:   "modern: the latest request's capabilities win (url only)",
		steps:  []step{c2s(0, discover), s2c(1, discovered), c2s(1, urlOnly)},
		calls:  []string{`c2s "probe" server/discover ok modern`, "c2s 2 tools/list pending modern"},
		client: Peer{Name: "acme", Version: "3.2.0", Capabilities: []byte(`{"elicitation":{"url":{}}}`), ElicitURL: true},
		server: Peer{Name: "deployer", Version: "0.9.1", Capabilities: []byte(`{"tools":{}}`), SupportedVersions: []string{"2026-07-28"}},
		eras:   []string{EraModern}, vers: []string{"2026-07-28"},
	}, {
		name: "legacy: initialize negotiates the version; dual era after it",
		steps: []step{
			c2s(0, req("0", "tools/list", "")),
			c2s(0, req("1", "initialize", initReq)),
			s2c(1, res("1", `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"2"}}`)),
			c2s(0, notif("notifications/initialized", `{}`)),
			c2s(0, req("2", "tools/list", "")),
			c2s(0, urlOnly),
		},
		calls: []string{
			"c2s 0 tools/list pending",
			"c2s 1 initialize ok legacy",
			"c2s 2 tools/list pending legacy",
			"c2s 2 tools/list pending modern",
		},
		client: Peer{Name: "c", Version: "1", Capabilities: []byte(`{"elicitation":{"url":{}}}`), ElicitURL: true},
		server: Peer{Name: "s", Version: "2", Capabilities: []byte(`{"tools":{}}`)},
		eras:   []string{EraLegacy, EraModern}, vers: []string{"2025-06-18", "2026-07-28"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.calls, callLines(snap.Calls.Slice())); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.client, snap.Session.Client, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("client (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.server, snap.Session.Server, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("server (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.eras, snap.Session.Eras); diff != "" {
				t.Errorf("eras (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.vers, snap.Session.ProtocolVersions); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
		})
	}
}
