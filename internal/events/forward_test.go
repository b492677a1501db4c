package events_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/otlp"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// futureMeta is the _meta of a 2026-07-28 request.
const futureMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`

// futureFrames is a session from a newer peer: a method nobody knows, a
// result type nobody knows, an MRTR question in a mode nobody knows with
// members nobody knows, a form whose schema uses a type and keywords
// nobody knows, answered with an action nobody knows.
var futureFrames = []struct {
	dir capture.Dir
	msg string
}{
	{capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"vendor/frobnicate","params":{"level":3,"x-new":{"a":[1]},` + futureMeta + `}}`},
	{capture.S2C, `{"jsonrpc":"2.0","id":1,"result":{"frobbed":true,"resultType":"complete"}}`},
	{capture.C2S, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stream","arguments":{},` + futureMeta + `}}`},
	{capture.S2C, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"partial_stream","content":[],"cursor":"c1"}}`},
	{capture.C2S, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pair","arguments":{},` + futureMeta + `}}`},
	{capture.S2C, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","requestState":"s1","inputRequests":{` +
		`"tap":{"method":"elicitation/create","params":{"mode":"nfc","message":"Tap your card","nfc":{"aid":"F00"},"x-ttl":30}},` +
		`"pick":{"method":"elicitation/create","params":{"mode":"form","message":"Pick a colour","x-ui":"wheel","requestedSchema":{"type":"object",` +
		`"properties":{"colour":{"type":"color","palette":"web","x-widget":"wheel"},"n":{"type":"integer","minimum":1,"multipleOf":2}},"required":["colour"],"x-layout":"grid"}}}}}}`},
	{capture.C2S, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"pair","arguments":{},"requestState":"s1","inputResponses":{` +
		`"tap":{"action":"snooze","until":"later"},"pick":{"action":"accept","content":{"colour":"#ff0000","n":2,"x-extra":true},"x-signature":"abc"}},` + futureMeta + `}}`},
	{capture.S2C, `{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","content":[{"type":"hologram","uri":"x"}]}}`},
}

func futureRecords() []capture.Record {
	at := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	recs := []capture.Record{{Type: capture.TypeSession, Format: 1, SessionID: "future", Transport: "stdio", Time: at}}
	for i, f := range futureFrames {
		recs = append(recs, capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Dir: f.dir,
			Time: at.Add(time.Duration(i) * 10 * time.Millisecond), Msg: jsontext.Value(f.msg)})
	}
	return recs
}

// eventView is what the forward-compatibility test checks of an event.
type eventView struct {
	Type, Resource, Status, ResultType, Error string
	Rounds                                    int
	Mode, ElStatus, Action                    string
	Fields, AnswerFields                      string
}

func viewOf(e *events.Event) eventView {
	v := eventView{Type: e.EventType, Resource: e.ResourceName, Status: e.Status, ResultType: e.ResultType, Rounds: e.Rounds}
	if e.Error != nil {
		v.Error = e.Error.Type
	}
	if el := e.Elicitation; el != nil {
		v.Mode, v.ElStatus, v.Action = el.Mode, el.Status, el.Action
		var fs []string
		for _, f := range el.Fields {
			fs = append(fs, f.Name+":"+f.Type)
		}
		v.Fields, v.AnswerFields = strings.Join(fs, ","), strings.Join(el.AnswerFields, ",")
	}
	return v
}

// TestForwardCompatibility feeds a session from a newer peer to the store,
// offline and live: every operation and every question produces its event
// with what is known (the unknown method by name, the unknown result type
// and mode and action as written, the fields of a known schema shape), and
// nothing fails.
func TestForwardCompatibility(t *testing.T) {
	t.Parallel()
	want := []eventView{
		{Type: "mcp:vendor/frobnicate", Status: "ok", Rounds: 1},
		{Type: "mcp:tools/call", Resource: "stream", Status: "ok", ResultType: "partial_stream", Rounds: 1},
		// Questions of one frame come in key order.
		{Type: "mcp:elicitation/create", Resource: "pair", Mode: "form", ElStatus: "asked", Fields: "colour:color,n:integer"},
		{Type: "mcp:elicitation/create", Resource: "pair", Mode: "nfc", ElStatus: "asked"},
		{Type: "mcp:elicitation/response", Resource: "pair", Mode: "form", ElStatus: "answered", Action: "accept",
			Fields: "colour:color,n:integer", AnswerFields: "colour,n,x-extra"},
		{Type: "mcp:elicitation/response", Resource: "pair", Mode: "nfc", ElStatus: "answered", Action: "snooze"},
		{Type: "mcp:tools/call", Resource: "pair", Status: "ok", Rounds: 2},
	}
	recs := futureRecords()
	var evs []events.Event
	ef := events.NewFeed(false, func(e *events.Event) { evs = append(evs, *e) })
	for i := range recs {
		ef.Ingest(&recs[i])
	}
	var offline bytes.Buffer
	if err := events.WriteJSONL(&offline, evs); err != nil {
		t.Fatal(err)
	}
	t.Run("offline", func(t *testing.T) {
		var got []eventView
		for i := range evs {
			got = append(got, viewOf(&evs[i]))
			if _, err := events.Marshal(&evs[i]); err != nil {
				t.Errorf("event %d: %v", i, err)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		var file bytes.Buffer
		if err := otlp.WriteJSON(context.Background(), &file, evs, "future"); err != nil || strings.Count(file.String(), "\n") != 2 {
			t.Errorf("OTLP/JSON: %v\n%s", err, file.String())
		}
	})
	t.Run("live", func(t *testing.T) {
		var buf bytes.Buffer
		fd := feed.New(nil)
		p := events.NewPipeline(&events.PipelineOptions{Source: fd.Subscribe(nil), Sinks: []events.Sink{events.NewFileSink(&buf)}})
		for i := range recs {
			fd.PublishWritten(&recs[i])
		}
		fd.Close()
		st, err := p.Close(context.Background())
		if err != nil || st.Lost() != 0 {
			t.Fatalf("pipeline: %v; %s", err, st.String())
		}
		if diff := cmp.Diff(offline.String(), buf.String()); diff != "" {
			t.Errorf("live events (+) differ from the offline ones (-):\n%s", diff)
		}
	})
}
