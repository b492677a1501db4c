package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The two shared fixtures (copied from ../shared/fixtures into testdata/).
func TestFixtures(t *testing.T) {
	t.Parallel()
	type timing struct{ Duration, Wait, Tool float64 }
	tests := []struct {
		file      string
		calls     []string
		durations []float64
		ops       []string
		timings   []timing
		findings  []string
		client    Peer
		server    Peer
		eras      []string
		versions  []string
	}{{
		file: "testdata/elicit-seed.transcript.jsonl",
		calls: []string{
			"c2s 1 tools/call[create_account] input-required modern op=0/1",
			"c2s 2 tools/call[create_account] ok modern op=0/2",
			"c2s 3 tools/call[sync_calendar] input-required modern op=1/1",
			"c2s 4 tools/call[sync_calendar] ok modern op=1/2",
			"c2s 5 tools/call[login_legacy] input-required modern op=2/1",
			"c2s 6 tools/call[login_legacy] tool-error modern op=2/2",
		},
		durations: []float64{40, 10, 30, 20, 20, 20},
		ops: []string{
			"tools/call[create_account] ok root=0 rounds=0:root,1:strong",
			"tools/call[sync_calendar] ok root=2 rounds=2:root,3:strong",
			"tools/call[login_legacy] tool-error root=4 rounds=4:root,5:strong",
		},
		// The wait is the human's time between each interim result and its
		// retry: 920, 2840 and 270 ms, as the fixture README says.
		timings: []timing{{970, 920, 50}, {2890, 2840, 50}, {310, 270, 40}},
		client: Peer{Name: "fixture-client", Version: "1.0.0",
			Capabilities: []byte(`{"elicitation":{"form":{},"url":{}}}`), ElicitForm: true, ElicitURL: true},
		eras: []string{EraModern}, versions: []string{"2026-07-28"},
	}, {
		file: "testdata/legacy-2025-11-25.transcript.jsonl",
		calls: []string{
			"c2s 0 initialize ok legacy",
			"c2s 1 tools/call[book_table] ok legacy",
			"s2c 0 elicitation/create ok legacy parent=1(single-in-flight)",
			"s2c 1 elicitation/create ok legacy parent=1(single-in-flight)",
		},
		durations: []float64{15, 25 + 1400 + 30 + 900 + 2200 + 20, 1400, 900},
		client: Peer{Name: "fixture-client", Version: "1.0.0",
			Capabilities: []byte(`{"elicitation":{"form":{},"url":{}}}`), ElicitForm: true, ElicitURL: true},
		server: Peer{Name: "fixture-server", Version: "0.1.0", Capabilities: []byte(`{"tools":{}}`)},
		eras:   []string{EraLegacy}, versions: []string{"2025-11-25"},
	}}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			snap := load(t, transcript(t, tt.file))
			checkConsistent(t, snap)
			if diff := cmp.Diff(tt.calls, callLines(snap.Calls.Slice())); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			var durations []float64
			for _, c := range snap.Calls.Slice() {
				durations = append(durations, c.DurationMS)
			}
			if diff := cmp.Diff(tt.durations, durations, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("call durations (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.ops, opLines(snap.Operations.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("operations (-want +got):\n%s", diff)
			}
			var timings []timing
			for _, op := range snap.Operations.Slice() {
				timings = append(timings, timing{op.DurationMS, op.WaitMS, op.ToolMS})
			}
			if diff := cmp.Diff(tt.timings, timings, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("operation timings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.findings, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
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
			if diff := cmp.Diff(tt.versions, snap.Session.ProtocolVersions); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
		})
	}
}
