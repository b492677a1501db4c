package otlp

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Metric names: the OpenTelemetry MCP semantic conventions' operation
// durations, then mcptrail's elicitation metrics.
const (
	MetricClientDuration = "mcp.client.operation.duration"
	MetricServerDuration = "mcp.server.operation.duration"
	MetricElicitations   = "mcptrail.elicitation.count"
	MetricHumanWait      = "mcptrail.elicitation.human_wait.duration"
)

// durationBuckets are the bounds the MCP semantic conventions advise for
// the operation durations, in seconds.
func durationBuckets() []float64 {
	return []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
}

// instruments are the Sink's metrics; the zero value records nothing
// (WriteJSON's file sink has no meter).
type instruments struct {
	client, server, human metric.Float64Histogram
	elicitations          metric.Int64Counter
}

// newInstruments creates the instruments on m.
func newInstruments(m metric.Meter) (instruments, error) {
	var in instruments
	var err error
	in.client, err = m.Float64Histogram(MetricClientDuration, metric.WithUnit("s"),
		metric.WithDescription("MCP operation duration as a passive observer estimates the client's: from the request seen at the tap to the final response seen at the tap, all MRTR rounds included."),
		metric.WithExplicitBucketBoundaries(durationBuckets()...))
	if err != nil {
		return in, err
	}
	in.server, err = m.Float64Histogram(MetricServerDuration, metric.WithUnit("s"),
		metric.WithDescription("MCP operation duration as a passive observer estimates the server's: the client duration less the time between MRTR rounds, when no request was open on the server."),
		metric.WithExplicitBucketBoundaries(durationBuckets()...))
	if err != nil {
		return in, err
	}
	in.human, err = m.Float64Histogram(MetricHumanWait, metric.WithUnit("s"),
		metric.WithDescription("Time from an elicitation question to its answer, as seen at the tap."),
		metric.WithExplicitBucketBoundaries(0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800))
	if err != nil {
		return in, err
	}
	in.elicitations, err = m.Int64Counter(MetricElicitations, metric.WithUnit("{elicitation}"),
		metric.WithDescription("Elicitation questions answered, by mode and action."))
	return in, err
}

// measure records one event's metrics.
func (in *instruments) measure(ctx context.Context, e *events.Event) {
	if in.client == nil {
		return
	}
	if el := e.Elicitation; el != nil {
		if e.EventType != events.TypeElicitResponse {
			return
		}
		action := el.Action
		if action == "" {
			action = el.Status
		}
		set := metric.WithAttributes(MetricElicitationAttributes(e, action)...)
		in.elicitations.Add(ctx, 1, set)
		if el.ElapsedMS != nil {
			in.human.Record(ctx, *el.ElapsedMS/1000, set)
		}
		return
	}
	if e.DurationMS == nil {
		return
	}
	set := metric.WithAttributes(MetricAttributes(e)...)
	in.client.Record(ctx, *e.DurationMS/1000, set)
	server := *e.DurationMS
	if e.ToolMS != nil {
		server = *e.ToolMS
	}
	in.server.Record(ctx, server/1000, set)
}

// MetricAttributes are the operation duration metrics' attributes: the
// semantic conventions' low-cardinality subset of SpanAttributes (no
// request id, no session id).
func MetricAttributes(e *events.Event) []attribute.KeyValue {
	a := operationCore(e)
	add := func(k, v string) {
		if v != "" {
			a = append(a, attribute.String(k, v))
		}
	}
	if e.Error != nil {
		add("error.type", e.Error.Type)
		if e.Error.Code != nil && e.Status != store.StatusHTTPError {
			add("rpc.response.status_code", fmt.Sprint(*e.Error.Code))
		}
	}
	switch e.Tags["transport"] {
	case "stdio":
		add("network.transport", "pipe")
	case "http":
		add("network.transport", "tcp")
		add("network.protocol.name", "http")
	}
	return a
}

// MetricElicitationAttributes are the elicitation metrics' attributes.
func MetricElicitationAttributes(e *events.Event, action string) []attribute.KeyValue {
	a := []attribute.KeyValue{
		attribute.String("mcptrail.elicitation.mode", e.Elicitation.Mode),
		attribute.String("mcptrail.elicitation.action", action),
	}
	if e.ResourceName != "" && e.Elicitation.Root != nil && e.Elicitation.Root.Method == "tools/call" {
		a = append(a, attribute.String("gen_ai.tool.name", e.ResourceName))
	}
	return a
}

// metricExporter builds the metric exporter for the protocol.
func metricExporter(ctx context.Context, u *url.URL, opts *Options) (sdkmetric.Exporter, error) {
	insecure := u.Scheme == "http"
	switch opts.Protocol {
	case "", ProtocolHTTP:
		o := []otlpmetrichttp.Option{otlpmetrichttp.WithEndpoint(u.Host),
			otlpmetrichttp.WithURLPath(strings.TrimSuffix(u.Path, "/") + "/v1/metrics"), otlpmetrichttp.WithHeaders(opts.Headers),
			otlpmetrichttp.WithHTTPClient(httpClient())}
		if insecure {
			o = append(o, otlpmetrichttp.WithInsecure())
		}
		e, err := otlpmetrichttp.New(ctx, o...)
		if err != nil {
			return nil, fmt.Errorf("creating the OTLP metric exporter: %w", err)
		}
		return e, nil
	case ProtocolGRPC:
		o := []otlpmetricgrpc.Option{otlpmetricgrpc.WithEndpoint(u.Host), otlpmetricgrpc.WithHeaders(opts.Headers)}
		if insecure {
			o = append(o, otlpmetricgrpc.WithInsecure())
		}
		e, err := otlpmetricgrpc.New(ctx, o...)
		if err != nil {
			return nil, fmt.Errorf("creating the OTLP metric exporter: %w", err)
		}
		return e, nil
	}
	return nil, fmt.Errorf("unknown OTLP protocol %q (want %s or %s)", opts.Protocol, ProtocolHTTP, ProtocolGRPC)
}
