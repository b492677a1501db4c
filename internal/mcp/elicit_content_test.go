package mcp

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func TestElicitContentShapes(t *testing.T) {
	t.Parallel()
	result := jsontext.Value(`{"resultType":"input_required","inputRequests":{` +
		`"b":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}},` +
		`"a":{"method":"elicitation/create","params":{"mode":"url","url":"https://x"}},` +
		`"s":{"method":"sampling/createMessage","params":{}},` +
		`"bad":{"method":"elicitation/create","params":{"mode":1}}}}`)
	wantQ := []KeyedQuestion{
		{Key: "a", Question: FormQuestion{Mode: "url"}},
		{Key: "b", Question: FormQuestion{RequestedSchema: jsontext.Value(`{"type":"object"}`)}},
	}
	if diff := cmp.Diff(wantQ, InputQuestions(result)); diff != "" {
		t.Errorf("InputQuestions (-want +got):\n%s", diff)
	}
	if got := ParseFormQuestion(jsontext.Value(`{"mode":"form","requestedSchema":{}}`)); got.Mode != "form" || string(got.RequestedSchema) != "{}" {
		t.Errorf("ParseFormQuestion = %+v", got)
	}
	retry := jsontext.Value(`{"inputResponses":{"z":{"action":"decline"},"a":{"action":"accept","content":{"n":1}},"s":{"role":"assistant"},"Case":{"Action":"accept"}}}`)
	wantA := []KeyedAnswer{
		{Key: "a", Answer: ElicitAnswer{Action: "accept", Content: jsontext.Value(`{"n":1}`)}},
		{Key: "z", Answer: ElicitAnswer{Action: "decline"}},
	}
	if diff := cmp.Diff(wantA, InputAnswers(retry)); diff != "" {
		t.Errorf("InputAnswers (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		raw string
		ok  bool
	}{{`{"action":"cancel"}`, true}, {`{"content":{}}`, false}, {`{"action":"accept","action":"decline"}`, false}, {`[]`, false}} {
		if _, ok := ParseElicitAnswer(jsontext.Value(tt.raw)); ok != tt.ok {
			t.Errorf("ParseElicitAnswer(%s) ok = %v, want %v", tt.raw, ok, tt.ok)
		}
	}
}

func TestMayHoldInputs(t *testing.T) {
	t.Parallel()
	if !MayHoldInputResponses(jsontext.Value(`{"inputResponses":{}}`)) || MayHoldInputResponses(jsontext.Value(`{"name":"inputResponses"}`)) != true {
		t.Error("MayHoldInputResponses misses a member or a string that names it")
	}
	if MayHoldInputResponses(jsontext.Value(`{"name":"t"}`)) || MayHoldInputRequests(jsontext.Value(`{"content":[]}`)) {
		t.Error("MayHold* holds for a message without the name")
	}
	if !MayHoldInputRequests(jsontext.Value(`{"resultType":"input_required","inputRequests":{}}`)) {
		t.Error("MayHoldInputRequests misses an interim result")
	}
}

// FuzzMayHoldInputs holds MayHoldInputResponses and MayHoldInputRequests
// to bytes.Contains on any bytes, the member names cut and repeated
// anywhere.
func FuzzMayHoldInputs(f *testing.F) {
	f.Add([]byte(`{"inputResponses":{}}`))
	f.Add([]byte(`{"resultType":"input_required","inputRequests":{"a":{}}}`))
	f.Add([]byte(`RRR"inputRequestsRinputResponses"`))
	f.Add([]byte(`"inputR`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := MayHoldInputResponses(b), bytes.Contains(b, []byte(`"inputResponses"`)); got != want {
			t.Errorf("MayHoldInputResponses(%q) = %v, bytes.Contains says %v", b, got, want)
		}
		if got, want := MayHoldInputRequests(b), bytes.Contains(b, []byte(`"inputRequests"`)); got != want {
			t.Errorf("MayHoldInputRequests(%q) = %v, bytes.Contains says %v", b, got, want)
		}
	})
}
