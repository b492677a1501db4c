package jsonexport

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)

func sampleFrames() []store.Frame {
	return []store.Frame{
		{Seq: 1, Time: t0, Dir: capture.C2S, Kind: store.KindRequest, ID: wire.IntID(1), Method: "tools/call", Size: 20, Call: 0,
			Record: &capture.Record{Msg: jsontext.Value(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)}},
		{Seq: 2, Time: t0.Add(1500 * time.Microsecond), Dir: capture.S2C, Kind: store.KindInvalid, Size: 9, Problem: wire.ProblemJSON, Call: -1,
			Record: &capture.Record{Text: "not \"json\""}},
		{Seq: 3, Time: t0.Add(2 * time.Millisecond), Dir: capture.S2C, Kind: store.KindInvalid, Size: 2, Problem: wire.ProblemUTF8, Call: -1,
			Record: &capture.Record{B64: []byte{0xff, 0xfe}}},
	}
}

func sampleSnapshot() *store.Snapshot {
	exit := 0
	return &store.Snapshot{
		Session: store.Session{ID: "s1", Label: "demo", Transport: "stdio", Command: []string{"srv", "--x"}, Format: 1,
			Start: t0, End: t0.Add(time.Second), Ended: true, Exit: &exit, Eras: []string{"modern"}, ProtocolVersions: []string{"2026-07-28"},
			Client: store.Peer{Name: "c", Version: "1", ElicitForm: true}},
		Calls: store.CallsOf([]store.Call{
			{Index: 0, Dir: capture.C2S, ID: wire.IntID(1), Method: "tools/call", Target: "t", Era: "modern", RequestSeq: 1, ResponseSeq: 4,
				Start: t0, End: t0.Add(40 * time.Millisecond), DurationMS: 40.0004, Status: store.StatusError, Error: &store.CallError{Code: -32602, Message: "bad"},
				Operation: -1, Parent: -1},
			{Index: 1, Dir: capture.C2S, ID: wire.StringID("a"), Method: "tools/call", RequestSeq: 5, Start: t0, Status: store.StatusPending,
				Operation: 0, Round: 1, Parent: -1, CancelSeq: 6, Late: true},
		}),
		Operations: store.ListOf([]store.Operation{{Index: 0, Method: "tools/call", Target: "t", Root: 1, RootID: wire.StringID("a"), Status: "input-required",
			Start: t0, Rounds: []store.Round{{Call: 1, ID: wire.StringID("a"), Pairing: store.PairRoot,
				InputRequests: []store.InputRequest{{Key: "k", Method: "elicitation/create"}}, HasState: true}}}}),
		Summary:  store.Summary{Methods: []store.Stat{{Name: "tools/call", Count: 2, Errors: 1, P50MS: 40, P95MS: 40, P99MS: 40}}},
		Counts:   store.Counts{Records: 5, Frames: 3, C2S: 1, S2C: 2, Bytes: 31, Invalid: 2},
		Findings: store.FindingsOf([]finding.Finding{finding.New(finding.InvalidFrame, 2, "bad frame")}),
	}
}

func render(t *testing.T, frames []store.Frame, snap *store.Snapshot, opts *Options) string {
	t.Helper()
	var buf bytes.Buffer
	w := New(&buf, opts)
	defer w.Close()
	for i := range frames {
		w.Frame(&frames[i])
	}
	if err := w.Finish(snap); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestShape(t *testing.T) {
	t.Parallel()
	out := render(t, sampleFrames(), sampleSnapshot(), nil)
	if !jsontext.Value(out).IsValid() {
		t.Fatalf("export is not valid JSON:\n%s", out)
	}
	dec := jsontext.NewDecoder(strings.NewReader(out))
	dec.ReadToken()
	var keys []string
	for dec.PeekKind() != '}' {
		k, _ := dec.ReadToken()
		keys = append(keys, k.String())
		dec.SkipValue()
	}
	if diff := cmp.Diff([]string{"session", "frames", "calls", "operations", "summary", "findings"}, keys); diff != "" {
		t.Errorf("top-level keys (-want +got):\n%s", diff)
	}
	var doc struct {
		Frames []map[string]any `json:"frames"`
		Calls  []map[string]any `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	wantFrames := []map[string]any{
		{"seq": 1.0, "time": "2026-07-28T09:00:00Z", "dir": "c2s", "kind": "request", "id": 1.0, "method": "tools/call", "size": 20.0, "call": 0.0,
			"msg": map[string]any{"jsonrpc": "2.0", "id": 1.0, "method": "tools/call"}},
		{"seq": 2.0, "time": "2026-07-28T09:00:00.0015Z", "dir": "s2c", "kind": "invalid", "size": 9.0, "problem": "not valid JSON", "text": `not "json"`},
		{"seq": 3.0, "time": "2026-07-28T09:00:00.002Z", "dir": "s2c", "kind": "invalid", "size": 2.0, "problem": "invalid UTF-8", "b64": "//4="},
	}
	if diff := cmp.Diff(wantFrames, doc.Frames); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
	wantCalls := []map[string]any{
		{"index": 0.0, "dir": "c2s", "id": 1.0, "method": "tools/call", "target": "t", "era": "modern", "request_seq": 1.0, "response_seq": 4.0,
			"start": "2026-07-28T09:00:00Z", "end": "2026-07-28T09:00:00.04Z", "duration_ms": 40.0, "status": "error",
			"error": map[string]any{"code": -32602.0, "message": "bad"}},
		{"index": 1.0, "dir": "c2s", "id": "a", "method": "tools/call", "request_seq": 5.0, "start": "2026-07-28T09:00:00Z", "status": "pending",
			"cancel_seq": 6.0, "late": true, "operation": 0.0, "round": 1.0},
	}
	if diff := cmp.Diff(wantCalls, doc.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	out := render(t, nil, &store.Snapshot{}, nil)
	if !jsontext.Value(out).IsValid() {
		t.Fatalf("export is not valid JSON:\n%s", out)
	}
	if !strings.Contains(out, `"frames":[],`) || !strings.Contains(out, `"findings":[]}`) {
		t.Errorf("empty arrays missing:\n%s", out)
	}
}

func TestSpoolSpill(t *testing.T) {
	t.Parallel()
	var frames []store.Frame
	for range 200 {
		frames = append(frames, sampleFrames()...)
	}
	inMemory := render(t, frames, sampleSnapshot(), nil)
	dir := t.TempDir()
	spilled := render(t, frames, sampleSnapshot(), &Options{SpoolDir: dir, SpoolMemory: 1024})
	if diff := cmp.Diff(inMemory, spilled); diff != "" {
		t.Errorf("spilled export differs (-memory +spilled):\n%s", diff)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("spool left %d files behind", len(left))
	}
}
