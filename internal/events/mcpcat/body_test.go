package mcpcat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/events"
)

func ptr[T any](v T) *T { return &v }

var at = time.Date(2026, 11, 30, 12, 0, 0, 250_000_000, time.UTC)

// TestBody checks the mapping of each kind of event to the API's schema.
func TestBody(t *testing.T) {
	t.Parallel()
	common := events.Event{ID: "s-1", SessionID: "s", Timestamp: at, ClientName: "cl", ClientVersion: "1",
		ServerName: "sv", ServerVersion: "2", Tags: map[string]string{"label": "gh\nprod", "bad key": "x"}}
	call := common
	call.EventType, call.Method, call.ResourceName = "mcp:tools/call", "tools/call", "search"
	call.DurationMS, call.WaitMS, call.ToolMS, call.Rounds = ptr(12.6), ptr(0.0), ptr(12.6), 1
	call.Parameters, call.Response = jsontext.Value(`{"name":"string"}`), jsontext.Value(`["array"]`)
	call.IsError, call.Error = true, &events.Error{Code: ptr(int64(-32602)), Message: "bad", Type: "-32602"}
	call.RequestID = jsontext.Value(`7`)

	create := common
	create.EventType, create.Method, create.ResourceName = events.TypeElicitCreate, "elicitation/create", "book"
	create.Elicitation = &events.Elicitation{Mode: "form", Message: "How many guests?", Status: "asked", Key: "guests",
		Fields: []events.Field{{Name: "guests", Type: "integer", Required: true, Minimum: ptr(1.0)}, {Name: "note", Type: "string"}}}
	response := create
	response.EventType, response.DurationMS = events.TypeElicitResponse, ptr(1500.4)
	el := *create.Elicitation
	el.Status, el.Action, el.AnswerFields = "answered", "accept", []string{"guests"}
	response.Elicitation = &el
	withContent := response
	el2 := el
	el2.Content = jsontext.Value(`{"guests":4}`)
	withContent.Elicitation = &el2

	shared := `"id":"s-1","project_id":"proj_1","session_id":"s","timestamp":"2026-11-30T12:00:00.25Z",` +
		`"client_name":"cl","client_version":"1","server_name":"sv","server_version":"2","tags":{"label":"gh prod"},`
	question := `"parameters":{"message":"How many guests?","mode":"form","requested_schema":{"properties":{"guests":"integer","note":"string"},"required":["guests"]},"validation":{"guests":{"minimum":1}}},`
	props := `"properties":{"elicitation_key":"guests","elicitation_status":%q,"method":"elicitation/create","source":"mcptrail"}`
	tests := []struct {
		name string
		e    *events.Event
		want string
	}{
		{"operation", &call, `{` + shared + `"event_type":"mcp:tools/call","duration":13,"resource_name":"search","is_error":true,` +
			`"error":{"code":-32602,"message":"bad","type":"-32602"},"parameters":{"name":"string"},"response":{"value":["array"]},` +
			`"properties":{"method":"tools/call","request_id":7,"rounds":1,"source":"mcptrail","tool_ms":12.6,"wait_ms":0}}`},
		{"elicitation create", &create, `{` + shared + `"event_type":"mcp:elicitation/create","resource_name":"book","user_intent":"How many guests?",` +
			question + `"is_error":false,` + strings.Replace(props, "%q", `"asked"`, 1) + `}`},
		{"elicitation response, no content", &response, `{` + shared + `"event_type":"mcp:elicitation/response","duration":1500,"resource_name":"book",` +
			`"user_intent":"How many guests?",` + question + `"response":{"action":"accept"},"is_error":false,` + strings.Replace(props, "%q", `"answered"`, 1) + `}`},
		{"elicitation response, content", &withContent, `{` + shared + `"event_type":"mcp:elicitation/response","duration":1500,"resource_name":"book",` +
			`"user_intent":"How many guests?",` + question + `"response":{"action":"accept","content":{"guests":4}},"is_error":false,` + strings.Replace(props, "%q", `"answered"`, 1) + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Body(tt.e, "proj_1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(decode(t, []byte(tt.want)), decode(t, got)); diff != "" {
				t.Errorf("Body (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTagLimits checks that tags outside the API's limits are cut or left
// out rather than sent for a 400.
func TestTagLimits(t *testing.T) {
	t.Parallel()
	in := map[string]string{"ok": strings.Repeat("é", 250), strings.Repeat("k", 33): "too long a key", "a/b": "bad key"}
	for i := range 60 {
		in[fmt.Sprintf("t%02d", i)] = "v"
	}
	got := apiTags(in)
	if len(got) != tagMaxEntries {
		t.Errorf("%d tags kept, want %d", len(got), tagMaxEntries)
	}
	if v := got["ok"]; len([]rune(v)) != tagMaxValueLen {
		t.Errorf("a 250-character value kept %d characters, want %d", len([]rune(v)), tagMaxValueLen)
	}
	for k := range got {
		if !tagKey(k) {
			t.Errorf("kept tag key %q outside the API's limits", k)
		}
	}
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return v
}
