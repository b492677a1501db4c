package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNegotiation: a dual-era client's server/discover that a 2025 server
// refuses (-32601, -32602, -32022 unsupported version) and that the client
// follows with initialize is era negotiation: the summary counts no error
// for it, nor does Call.Failed. A refused probe the client does not follow
// with initialize, and an initialize that fails, stay errors.
func TestNegotiation(t *testing.T) {
	t.Parallel()
	probe := func(id string) string { return req(id, "server/discover", "{"+meta+"}") }
	initialize := func(id string) string {
		return req(id, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
	}
	initialized := res("0", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)
	tests := []struct {
		name   string
		steps  []step
		errors map[string]int // method -> summary Errors
		neg    []bool         // Call.Negotiation of each call
	}{{
		name:   "-32601 then initialize",
		steps:  []step{c2s(0, probe(`"p1"`)), s2c(1, errRes(`"p1"`, -32601, "Method not found")), c2s(2, initialize("0")), s2c(3, initialized)},
		errors: map[string]int{"server/discover": 0, "initialize": 0},
		neg:    []bool{true, false},
	}, {
		name:   "-32022 unsupported version then initialize",
		steps:  []step{c2s(0, probe(`"p1"`)), s2c(1, errRes(`"p1"`, -32022, "unsupported protocol version")), c2s(2, initialize("0")), s2c(3, initialized)},
		errors: map[string]int{"server/discover": 0, "initialize": 0},
		neg:    []bool{true, false},
	}, {
		name:   "-32602 then no initialize",
		steps:  []step{c2s(0, probe(`"p1"`)), s2c(1, errRes(`"p1"`, -32602, "Invalid params")), c2s(2, req("1", "tools/list", ""))},
		errors: map[string]int{"server/discover": 1, "tools/list": 0},
		neg:    []bool{false, false},
	}, {
		name: "the initialize fails too",
		steps: []step{c2s(0, probe(`"p1"`)), s2c(1, errRes(`"p1"`, -32601, "Method not found")), c2s(2, initialize("0")),
			s2c(3, errRes("0", -32603, "boom"))},
		errors: map[string]int{"server/discover": 0, "initialize": 1},
		neg:    []bool{true, false},
	}, {
		// A 5xx is the server (or the proxy, its target down) failing,
		// not refusing the era: still an error.
		name: "HTTP 502 then initialize",
		steps: []step{post("x1", probe(`"p1"`), nil), answer("x1", 502, "", nil),
			post("x2", initialize("0"), nil), answer("x2", 200, initialized, nil)},
		errors: map[string]int{"server/discover": 1, "initialize": 0},
		neg:    []bool{false, false},
	}, {
		name: "HTTP 401 then initialize",
		steps: []step{post("x1", probe(`"p1"`), nil), answer("x1", 401, "", nil),
			post("x2", initialize("0"), nil), answer("x2", 200, initialized, nil)},
		errors: map[string]int{"server/discover": 1, "initialize": 0},
		neg:    []bool{false, false},
	}, {
		name: "HTTP 400 then initialize",
		steps: []step{post("x1", probe(`"p1"`), nil), answer("x1", 400, "", nil),
			post("x2", initialize("0"), nil), answer("x2", 200, initialized, nil)},
		errors: map[string]int{"server/discover": 0, "initialize": 0},
		neg:    []bool{true, false},
	}, {
		// A client that stops waiting for the probe (Claude Code does
		// after about 2.5 s, while a slow server starts) sends initialize
		// before the refusal arrives: still negotiation.
		name:   "initialize sent before the refusal arrives",
		steps:  []step{c2s(0, probe(`"p1"`)), c2s(1, initialize("0")), s2c(2, errRes(`"p1"`, -32601, "Method not found")), s2c(3, initialized)},
		errors: map[string]int{"server/discover": 0, "initialize": 0},
		neg:    []bool{true, false},
	}, {
		name: "initialize sent before a 502 arrives",
		steps: []step{post("x1", probe(`"p1"`), nil), post("x2", initialize("0"), nil), answer("x1", 502, "", nil),
			answer("x2", 200, initialized, nil)},
		errors: map[string]int{"server/discover": 1, "initialize": 0},
		neg:    []bool{false, false},
	}, {
		name:   "a probe answered by a result",
		steps:  []step{c2s(0, probe(`"p1"`)), s2c(1, res(`"p1"`, `{"supportedVersions":["2026-07-28"]}`)), c2s(2, initialize("0")), s2c(3, initialized)},
		errors: map[string]int{"server/discover": 0, "initialize": 0},
		neg:    []bool{false, false},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			got := map[string]int{}
			for _, st := range snap.Summary.Methods {
				got[st.Name] = st.Errors
			}
			if diff := cmp.Diff(tt.errors, got); diff != "" {
				t.Errorf("summary errors (-want +got):\n%s", diff)
			}
			var neg []bool
			for _, c := range snap.Calls.Slice() {
				neg = append(neg, c.Negotiation)
				if c.Negotiation && c.Failed() {
					t.Errorf("call %d is negotiation and failed", c.Index)
				}
			}
			if diff := cmp.Diff(tt.neg, neg); diff != "" {
				t.Errorf("negotiation (-want +got):\n%s", diff)
			}
			checkConsistent(t, snap)
		})
	}
}
