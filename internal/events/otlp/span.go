package otlp

import (
	"context"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Event names of elicitation span events and log records.
const (
	EventElicitCreate   = "mcptrail.elicitation.create"
	EventElicitResponse = "mcptrail.elicitation.response"
)

// span records an operation event as a span, with the elicitations that
// belong to it as span events.
func (s *Sink) span(e *events.Event) {
	ctx := context.Background()
	if e.TraceParent != "" {
		carrier := propagation.MapCarrier{"traceparent": e.TraceParent}
		if e.TraceState != "" {
			carrier["tracestate"] = e.TraceState
		}
		ctx = propagation.TraceContext{}.Extract(ctx, carrier)
	}
	name := e.Method
	if e.ResourceName != "" {
		name += " " + e.ResourceName
	}
	end := e.Timestamp
	if e.DurationMS != nil {
		end = end.Add(time.Duration(*e.DurationMS * float64(time.Millisecond)))
	}
	_, sp := s.tracer.Start(ctx, name, trace.WithTimestamp(e.Timestamp),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(SpanAttributes(e)...))
	key := e.Method + "\x00" + string(e.RequestID)
	for _, el := range s.pending[key] {
		sp.AddEvent(eventName(&el), trace.WithTimestamp(el.Timestamp), trace.WithAttributes(ElicitationAttributes(&el)...))
	}
	delete(s.pending, key)
	if e.IsError {
		sp.SetStatus(codes.Error, errorDescription(e))
	}
	sp.End(trace.WithTimestamp(end))
}

func errorDescription(e *events.Event) string {
	if e.Error != nil && e.Error.Message != "" {
		return e.Error.Message
	}
	return e.Status
}

func eventName(e *events.Event) string {
	if e.EventType == events.TypeElicitResponse {
		return EventElicitResponse
	}
	return EventElicitCreate
}

// log emits an elicitation event as a log record.
func (s *Sink) log(e *events.Event) {
	var r otellog.Record
	r.SetEventName(eventName(e))
	r.SetTimestamp(e.Timestamp)
	r.SetObservedTimestamp(s.observed(e))
	r.SetSeverity(otellog.SeverityInfo)
	r.SetSeverityText("INFO")
	r.AddAttributes(attribute.String("event.name", eventName(e)), attribute.String("mcptrail.session.id", e.SessionID))
	r.AddAttributes(ElicitationAttributes(e)...)
	s.logger.Emit(context.Background(), r)
}

// SpanAttributes are an operation span's attributes: the OpenTelemetry MCP
// semantic conventions, then mcptrail.* extras.
func SpanAttributes(e *events.Event) []attribute.KeyValue {
	a := operationCore(e)
	add := func(k, v string) {
		if v != "" {
			a = append(a, attribute.String(k, v))
		}
	}
	switch e.Method {
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		add("mcp.resource.uri", e.ResourceName)
	}
	add("jsonrpc.request.id", requestID(e.RequestID))
	if e.Error != nil {
		add("error.type", e.Error.Type)
		switch {
		case e.Error.Code == nil:
		case e.Status == store.StatusHTTPError: // the code is the HTTP status
			a = append(a, attribute.Int64("http.response.status_code", *e.Error.Code))
		default:
			add("rpc.response.status_code", strconv.FormatInt(*e.Error.Code, 10))
		}
	}
	if e.Era == "legacy" {
		add("mcp.session.id", e.HTTPSessionID)
	}
	if tr := e.Tags["transport"]; tr == "stdio" {
		add("network.transport", "pipe")
	}
	add("mcptrail.session.id", e.SessionID)
	add("mcptrail.client.name", e.ClientName)
	add("mcptrail.server.name", e.ServerName)
	add("mcptrail.status", e.Status)
	if e.Task != nil {
		add("mcptrail.task.id", e.Task.ID)
		add("mcptrail.task.status", e.Task.Status)
	}
	a = append(a, attribute.Int("mcptrail.rounds", e.Rounds))
	if e.WaitMS != nil && e.ToolMS != nil {
		a = append(a, attribute.Float64("mcptrail.wait_ms", *e.WaitMS), attribute.Float64("mcptrail.tool_ms", *e.ToolMS))
	}
	return a
}

// operationCore is what an operation's span and its duration metrics share
// of the semantic-convention attributes: the method, the protocol version
// and the tool or prompt it names.
func operationCore(e *events.Event) []attribute.KeyValue {
	a := []attribute.KeyValue{attribute.String("mcp.method.name", e.Method)}
	if e.ProtocolVersion != "" {
		a = append(a, attribute.String("mcp.protocol.version", e.ProtocolVersion))
	}
	switch e.Method {
	case "tools/call":
		if e.ResourceName != "" {
			a = append(a, attribute.String("gen_ai.tool.name", e.ResourceName))
		}
		a = append(a, attribute.String("gen_ai.operation.name", "execute_tool"))
	case "prompts/get":
		if e.ResourceName != "" {
			a = append(a, attribute.String("gen_ai.prompt.name", e.ResourceName))
		}
	}
	return a
}

// requestID renders a raw JSON-RPC id: a string id unquoted, a number as
// written.
func requestID(raw []byte) string {
	if s, ok := jsonraw.String(raw); ok {
		return s
	}
	return string(raw)
}

// ElicitationAttributes are the mcptrail.elicitation.* attributes of an
// elicitation event (docs/events.md lists them).
func ElicitationAttributes(e *events.Event) []attribute.KeyValue {
	el := e.Elicitation
	const p = "mcptrail.elicitation."
	a := []attribute.KeyValue{
		attribute.String(p+"era", el.Era), attribute.String(p+"mode", el.Mode), attribute.String(p+"status", el.Status),
	}
	add := func(k, v string) {
		if v != "" {
			a = append(a, attribute.String(p+k, v))
		}
	}
	add("message", el.Message)
	add("url", el.URL)
	add("host", el.Host)
	add("key", el.Key)
	add("action", el.Action)
	if el.Round > 0 {
		a = append(a, attribute.Int(p+"round", el.Round))
	}
	if el.Root != nil {
		add("root.method", el.Root.Method)
		add("root.target", el.Root.Target)
		add("root.request_id", requestID(el.Root.RequestID))
	}
	if len(el.Fields) > 0 {
		names, types, required := make([]string, len(el.Fields)), make([]string, len(el.Fields)), []string{}
		for i, f := range el.Fields {
			names[i], types[i] = f.Name, f.Type
			if f.Required {
				required = append(required, f.Name)
			}
		}
		a = append(a, attribute.StringSlice(p+"fields", names), attribute.StringSlice(p+"field_types", types),
			attribute.StringSlice(p+"required", required))
	}
	if el.ElapsedMS != nil {
		a = append(a, attribute.Float64(p+"elapsed_ms", *el.ElapsedMS))
	}
	if len(el.AnswerFields) > 0 {
		a = append(a, attribute.StringSlice(p+"answer_fields", el.AnswerFields))
	}
	if len(el.Content) > 0 {
		add("content", string(el.Content))
	}
	return a
}
