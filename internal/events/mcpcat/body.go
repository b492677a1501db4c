package mcpcat

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/events"
)

// Tag limits of the API (its OpenAPI document's description of tags).
const (
	tagMaxEntries  = 50
	tagMaxKeyLen   = 32
	tagMaxValueLen = 200
)

// body is the request body of POST /v1/public/events/ in the API's own
// (snake case) schema. Empty fields are omitted, except is_error.
type body struct {
	ID            string `json:"id"`
	ProjectID     string `json:"project_id"`
	SessionID     string `json:"session_id"`
	EventType     string `json:"event_type"`
	Timestamp     string `json:"timestamp"`
	Duration      *int64 `json:"duration,omitempty"`
	ResourceName  string `json:"resource_name,omitempty"`
	UserIntent    string `json:"user_intent,omitempty"`
	Parameters    any    `json:"parameters,omitempty"`
	Response      any    `json:"response,omitempty"`
	IsError       bool   `json:"is_error"`
	Error         any    `json:"error,omitempty"`
	ServerName    string `json:"server_name,omitempty"`
	ServerVersion string `json:"server_version,omitempty"`
	ClientName    string `json:"client_name,omitempty"`
	ClientVersion string `json:"client_version,omitempty"`
	// Tags are the event's tags within the API's limits.
	Tags map[string]string `json:"tags,omitempty"`
	// Properties hold what mcptrail knows beyond the API's fields.
	Properties map[string]any `json:"properties,omitempty"`
}

// Body returns the request body that publishes e to project: the event in
// the API's schema. Operation events carry the root request's params and
// the result as parameters and response (shapes unless the Feed kept
// content); elicitation events carry the question's message as
// user_intent, the message, mode, requested schema (field types) and
// validation rules as parameters, and on a response the action as
// response, with the answer's content only when the event has it (the
// Feed's content option, after redaction).
func Body(e *events.Event, project string) ([]byte, error) {
	b := body{
		ID: e.ID, ProjectID: project, SessionID: e.SessionID, EventType: e.EventType,
		Timestamp: e.Timestamp.UTC().Format(time.RFC3339Nano), ResourceName: e.ResourceName,
		IsError: e.IsError, ServerName: e.ServerName, ServerVersion: e.ServerVersion,
		ClientName: e.ClientName, ClientVersion: e.ClientVersion, Tags: apiTags(e.Tags),
		Properties: properties(e),
	}
	if e.DurationMS != nil {
		d := int64(math.Round(*e.DurationMS))
		b.Duration = &d
	}
	if e.Error != nil {
		b.Error = apiError(e.Error)
	}
	if el := e.Elicitation; el != nil {
		b.UserIntent = el.Message
		b.Parameters = question(el)
		if e.EventType == events.TypeElicitResponse {
			b.Response = answer(el)
		}
	} else {
		b.Parameters = object(e.Parameters)
		b.Response = object(e.Response)
	}
	out, err := json.Marshal(&b, json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encoding event %s for the MCPcat API: %w", e.ID, err)
	}
	return out, nil
}

// object returns v as a JSON object, the only type the API takes for
// parameters and response: a non-object value is wrapped as {"value": v};
// absent stays absent.
func object(v jsontext.Value) any {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil
	}
	if v[0] == '{' {
		return v
	}
	return map[string]jsontext.Value{"value": v}
}

func apiError(e *events.Error) map[string]any {
	m := map[string]any{"type": e.Type}
	if e.Code != nil {
		m["code"] = *e.Code
	}
	if e.Message != "" {
		m["message"] = e.Message
	}
	return m
}

// question is an elicitation's parameters: what was asked, never answered.
func question(el *events.Elicitation) map[string]any {
	p := map[string]any{"mode": el.Mode}
	if el.Message != "" {
		p["message"] = el.Message
	}
	if el.Host != "" {
		p["url_host"] = el.Host
	}
	if len(el.Fields) == 0 {
		return p
	}
	props := map[string]string{}
	rules := map[string]map[string]any{}
	var required []string
	for _, f := range el.Fields {
		props[f.Name] = f.Type
		if f.Required {
			required = append(required, f.Name)
		}
		if r := fieldRules(&f); len(r) > 0 {
			rules[f.Name] = r
		}
	}
	p["requested_schema"] = map[string]any{"properties": props, "required": required}
	if len(rules) > 0 {
		p["validation"] = rules
	}
	return p
}

// fieldRules are a field's validation rules, JSON Schema words.
func fieldRules(f *events.Field) map[string]any {
	r := map[string]any{}
	if f.Format != "" {
		r["format"] = f.Format
	}
	if f.MinLength != nil {
		r["minLength"] = *f.MinLength
	}
	if f.MaxLength != nil {
		r["maxLength"] = *f.MaxLength
	}
	if f.Minimum != nil {
		r["minimum"] = *f.Minimum
	}
	if f.Maximum != nil {
		r["maximum"] = *f.Maximum
	}
	if len(f.Options) > 0 {
		r["enum"] = f.Options
	}
	return r
}

// answer is an elicitation response's response: the action (or the status
// when there is none, an error answer), and the content only when the
// event carries it.
func answer(el *events.Elicitation) map[string]any {
	r := map[string]any{}
	if el.Action != "" {
		r["action"] = el.Action
	} else {
		r["status"] = el.Status
	}
	if len(el.Content) > 0 {
		r["content"] = el.Content
	}
	return r
}

// properties are mcptrail's facts beyond the API's fields.
func properties(e *events.Event) map[string]any {
	p := map[string]any{"source": "mcptrail", "method": e.Method}
	set := func(k, v string) {
		if v != "" {
			p[k] = v
		}
	}
	set("status", e.Status)
	set("result_type", e.ResultType)
	set("era", e.Era)
	set("protocol_version", e.ProtocolVersion)
	set("traceparent", e.TraceParent)
	if len(e.RequestID) > 0 {
		p["request_id"] = e.RequestID
	}
	if e.Rounds > 0 {
		p["rounds"] = e.Rounds
	}
	if e.WaitMS != nil {
		p["wait_ms"] = *e.WaitMS
	}
	if e.ToolMS != nil {
		p["tool_ms"] = *e.ToolMS
	}
	if el := e.Elicitation; el != nil {
		set("elicitation_status", el.Status)
		set("elicitation_key", el.Key)
		set("elicitation_id", el.ElicitationID)
		if len(el.Observations) > 0 {
			p["observations"] = el.Observations
		}
	}
	return p
}

// apiTags keeps the tags the API takes: keys of at most 32 letters,
// digits and _.:-, values cut to 200 characters with newlines as spaces,
// at most 50 (by key order).
func apiTags(in map[string]string) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if len(out) == tagMaxEntries || !tagKey(k) {
			continue
		}
		v := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(in[k])
		if utf8.RuneCountInString(v) > tagMaxValueLen {
			v = string([]rune(v)[:tagMaxValueLen])
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func tagKey(k string) bool {
	if k == "" || len(k) > tagMaxKeyLen {
		return false
	}
	for _, c := range k {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_.:-", c)
		if !ok {
			return false
		}
	}
	return true
}
