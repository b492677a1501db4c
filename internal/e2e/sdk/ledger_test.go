package sdk_test

import (
	"math"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// exportElicitation mirrors one element of the export's elicitations
// (docs/export-json.md).
type exportElicitation struct {
	Root *struct {
		ID     jsontext.Value `json:"id"`
		Method string         `json:"method"`
		Target string         `json:"target"`
	} `json:"root"`
	Round     int            `json:"round"`
	RequestID jsontext.Value `json:"request_id"`
	Key       *string        `json:"key"`
	Era       string         `json:"era"`
	Mode      string         `json:"mode"`
	Message   string         `json:"message"`
	Fields    []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Required bool   `json:"required"`
	} `json:"fields"`
	URL          string    `json:"url"`
	Host         string    `json:"host"`
	Action       string    `json:"action"`
	Status       string    `json:"status"`
	AskedAt      time.Time `json:"asked_at"`
	AnsweredAt   time.Time `json:"answered_at"`
	ElapsedMS    float64   `json:"elapsed_ms"`
	AskedSeq     uint64    `json:"asked_seq"`
	AnsweredSeq  uint64    `json:"answered_seq"`
	Observations []string  `json:"observations"`
}

// rowView is the part of a ledger row the tests compare as a table.
type rowView struct {
	Root, Key, Era, Mode, Message, Fields, Action, Status string
	Round                                                 int
	Observations                                          int
}

func viewRows(x *export) []rowView {
	var out []rowView
	for _, r := range x.Elicitations {
		v := rowView{Key: "<null>", Era: r.Era, Mode: r.Mode, Message: r.Message, Action: r.Action, Status: r.Status,
			Round: r.Round, Observations: len(r.Observations)}
		if r.Root != nil {
			v.Root = r.Root.Method + " " + r.Root.Target + " " + string(r.Root.ID)
		}
		if r.Key != nil {
			v.Key = *r.Key
		}
		for _, f := range r.Fields {
			v.Fields += f.Name + ":" + f.Type
			if f.Required {
				v.Fields += "*"
			}
		}
		out = append(out, v)
	}
	return out
}

// checkModernLedger checks the rows the modern session must produce: the
// confirm question answered accept, decline and cancel, then the two
// rounds of the chained tool, each pointing at its root call, timed from
// the interim result to the retry that answered it.
func checkModernLedger(t *testing.T, x *export) {
	t.Helper()
	root := func(op int) string {
		c := x.Calls[x.Operations[op].Root]
		return c.Method + " " + c.Target + " " + string(c.ID)
	}
	confirm := func(op int, action string) rowView {
		return rowView{root(op), "confirm", "mrtr", "form", "Proceed?", "ok:boolean*", action, "answered", 1, 0}
	}
	want := []rowView{
		confirm(0, "accept"), confirm(1, "decline"), confirm(2, "cancel"),
		{root(3), "step1", "mrtr", "form", "Step 1: continue?", "go:boolean*", "accept", "answered", 1, 0},
		{root(3), "step2", "mrtr", "form", "Step 2: really continue?", "go:boolean*", "accept", "answered", 2, 0},
	}
	if diff := cmp.Diff(want, viewRows(x)); diff != "" {
		t.Errorf("ledger rows (-want +got):\n%s", diff)
	}
	for i, r := range x.Elicitations {
		if i >= len(want) {
			break
		}
		// The question came with the interim result of round r.Round; the
		// answer with the next round's request.
		op := x.Operations[[]int{0, 1, 2, 3, 3}[i]]
		asked, answered := x.Calls[op.Rounds[r.Round-1].Call], x.Calls[op.Rounds[r.Round].Call]
		checkRowTiming(t, x, i, r, asked.ResponseSeq, answered.RequestSeq)
		if string(r.RequestID) != string(asked.ID) {
			t.Errorf("row %d: request_id %s, the round's request has id %s", i, r.RequestID, asked.ID)
		}
	}
	checkLedgerSummary(t, x, map[string]int{"form": 5}, map[string]int{"accept": 3, "decline": 1, "cancel": 1}, map[string]int{"answered": 5})
}

// checkLegacyLedger checks the legacy session's one row: the server's own
// elicitation/create, attributed to the tools/call it interrupted.
func checkLegacyLedger(t *testing.T, x *export, tool, el exportCall) {
	t.Helper()
	want := []rowView{{"tools/call book " + string(tool.ID), "<null>", "legacy", "form", "How many guests?", "guests:integer*", "accept", "answered", 0, 0}}
	if diff := cmp.Diff(want, viewRows(x)); diff != "" {
		t.Fatalf("ledger rows (-want +got):\n%s", diff)
	}
	r := x.Elicitations[0]
	if string(r.RequestID) != string(el.ID) {
		t.Errorf("request_id %s, the server's elicitation/create has id %s", r.RequestID, el.ID)
	}
	checkRowTiming(t, x, 0, r, el.RequestSeq, el.ResponseSeq)
	if math.Abs(r.ElapsedMS-el.DurationMS) > 0.002 {
		t.Errorf("elapsed %.3f ms, the elicitation/create call took %.3f ms", r.ElapsedMS, el.DurationMS)
	}
	checkLedgerSummary(t, x, map[string]int{"form": 1}, map[string]int{"accept": 1}, map[string]int{"answered": 1})
}

// checkRowTiming checks a row's seqs and times against the frames that
// carried the question and the answer, and that the human's time covers
// the client handler's think time.
func checkRowTiming(t *testing.T, x *export, i int, r exportElicitation, askedSeq, answeredSeq uint64) {
	t.Helper()
	if r.AskedSeq != askedSeq || r.AnsweredSeq != answeredSeq {
		t.Errorf("row %d: seqs %d→%d, want %d→%d", i, r.AskedSeq, r.AnsweredSeq, askedSeq, answeredSeq)
		return
	}
	asked, answered := x.frameAt(t, askedSeq), x.frameAt(t, answeredSeq)
	if !r.AskedAt.Equal(asked.Time) || !r.AnsweredAt.Equal(answered.Time) {
		t.Errorf("row %d: asked %v answered %v, the frames crossed at %v and %v", i, r.AskedAt, r.AnsweredAt, asked.Time, answered.Time)
	}
	if d := ms(answered.Time.Sub(asked.Time)); math.Abs(r.ElapsedMS-d) > 0.002 || r.ElapsedMS < float64(handlerDelay.Milliseconds()) {
		t.Errorf("row %d: elapsed %.3f ms; the frames give %.6f ms, the handler thinks %v", i, r.ElapsedMS, d, handlerDelay)
	}
}

func checkLedgerSummary(t *testing.T, x *export, modes, actions, statuses map[string]int) {
	t.Helper()
	got := x.Summary.Elicitations
	if got == nil {
		t.Errorf("summary.elicitations missing")
		return
	}
	if diff := cmp.Diff([]map[string]int{modes, actions, statuses}, []map[string]int{got.Mode, got.Action, got.Status}); diff != "" {
		t.Errorf("summary.elicitations mode, action, status (-want +got):\n%s", diff)
	}
}
