package jsonexport

import (
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

func ledgerRows() []store.LedgerRow {
	return []store.LedgerRow{{
		Root: store.LedgerRoot{Call: 0, ID: wire.StringID("c-1"), Method: "tools/call", Target: "deploy"}, Round: 2,
		RequestID: wire.StringID("c-2"), Key: "k\"1", Era: store.LedgerMRTR, Mode: "form", Message: "Who?",
		Fields: []store.LedgerField{{Name: "a", Type: "string", Required: true}, {Name: "b", Type: "unknown"}},
		Action: "snooze", Status: store.LedgerAnswered, AskedAt: t0, AnsweredAt: t0.Add(920 * time.Millisecond),
		ElapsedMS: 920, AskedSeq: 2, AnsweredSeq: 3, Call: 1, Operation: 0,
	}, {
		Root: store.LedgerRoot{Call: -1}, RequestID: wire.IntID(0), Era: store.LedgerLegacy, Mode: "url", Message: "Pay",
		URL: "http://10.0.0.1/p", Host: "10.0.0.1", ElicitationID: "el-1", Status: store.LedgerRequired, AskedAt: t0,
		CompletedAt: t0.Add(time.Second), AskedSeq: 5, Observations: []string{store.ObsHostIPLiteral, store.ObsSchemeNotHTTPS},
		Call: 2, Operation: -1,
	}, {
		Root: store.LedgerRoot{Call: 0, ID: wire.IntID(1), Method: "resources/read", Target: "vault://x"}, Round: 1, RequestID: wire.IntID(1),
		Key: "p", Era: store.LedgerMRTR, Mode: "form", Message: "m", Fields: []store.LedgerField{},
		Status: store.LedgerPending, AskedAt: t0, AskedSeq: 7, Call: 0, Operation: 1,
	}}
}

func TestLedgerRows(t *testing.T) {
	t.Parallel()
	rows := ledgerRows()
	var got []string
	for i := range rows {
		got = append(got, string(AppendLedgerRow(nil, "", &rows[i])))
	}
	want := []string{
		`{"root":{"id":"c-1","method":"tools/call","target":"deploy"},"round":2,"request_id":"c-2","key":"k\"1","era":"mrtr","mode":"form","message":"Who?",` +
			`"fields":[{"name":"a","type":"string","required":true},{"name":"b","type":"unknown","required":false}],"action":"snooze","status":"answered",` +
			`"asked_at":"2026-07-28T09:00:00Z","answered_at":"2026-07-28T09:00:00.92Z","elapsed_ms":920,"asked_seq":2,"answered_seq":3,"observations":[]}`,
		`{"root":null,"request_id":0,"key":null,"era":"legacy","mode":"url","message":"Pay","url":"http://10.0.0.1/p","host":"10.0.0.1","elicitation_id":"el-1",` +
			`"status":"required","asked_at":"2026-07-28T09:00:00Z","completed_at":"2026-07-28T09:00:01Z","asked_seq":5,"observations":["host-ip-literal","scheme-not-https"]}`,
		`{"root":{"id":1,"method":"resources/read","target":"vault://x"},"round":1,"request_id":1,"key":"p","era":"mrtr","mode":"form","message":"m",` +
			`"fields":[],"status":"pending","asked_at":"2026-07-28T09:00:00Z","asked_seq":7,"observations":[]}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if s := string(AppendLedgerRow(nil, "sess-1", &rows[1])); !strings.HasPrefix(s, `{"session":"sess-1","root":null,`) {
		t.Errorf("row with a session = %s", s)
	}
}

func TestLedgerInDocument(t *testing.T) {
	t.Parallel()
	snap := sampleSnapshot()
	without := render(t, sampleFrames(), snap, nil)
	snap.Ledger = store.ListOf(ledgerRows())
	with := render(t, sampleFrames(), snap, nil)
	if !jsontext.Value(with).IsValid() {
		t.Fatalf("export with a ledger is not valid JSON:\n%s", with)
	}
	dec := jsontext.NewDecoder(strings.NewReader(with))
	dec.ReadToken()
	var keys []string
	for dec.PeekKind() != '}' {
		k, _ := dec.ReadToken()
		keys = append(keys, k.String())
		dec.SkipValue()
	}
	if diff := cmp.Diff([]string{"session", "frames", "calls", "operations", "elicitations", "summary", "findings"}, keys); diff != "" {
		t.Errorf("top-level keys (-want +got):\n%s", diff)
	}
	var doc struct {
		Elicitations []map[string]any `json:"elicitations"`
		Summary      struct {
			Elicitations map[string]map[string]int `json:"elicitations"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(with), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Elicitations) != 3 {
		t.Errorf("%d elicitations, want 3", len(doc.Elicitations))
	}
	wantSummary := map[string]map[string]int{
		"mode":   {"form": 2, "url": 1},
		"action": {"snooze": 1},
		"status": {"answered": 1, "pending": 1, "required": 1},
	}
	if diff := cmp.Diff(wantSummary, doc.Summary.Elicitations); diff != "" {
		t.Errorf("summary.elicitations (-want +got):\n%s", diff)
	}
	// Removing the two additions gives back the export without a ledger.
	i, j := strings.Index(with, ",\n\"elicitations\":["), strings.Index(with, "\n],\n\"summary\"")
	k := strings.Index(with, `,"elicitations":{`)
	l := strings.Index(with[k:], "}}") + k + 2
	if i < 0 || j < 0 || k < 0 {
		t.Fatalf("ledger members not found:\n%s", with)
	}
	stripped := with[:i] + with[j+2:k] + with[l:]
	if diff := cmp.Diff(without, stripped); diff != "" {
		t.Errorf("export minus its ledger differs from the export without one (-without +stripped):\n%s", diff)
	}
}
