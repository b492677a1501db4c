// Package otlp is the OpenTelemetry sink of analytics events, built on the
// official OpenTelemetry Go SDK: a span per completed operation (named
// "{mcp.method.name} {target}", attributes from the OpenTelemetry MCP
// semantic conventions), each elicitation of the operation as a span event
// under the mcptrail.elicitation.* namespace, every elicitation event as an
// OTel log record with an event.name, and metrics: the conventions'
// mcp.client.operation.duration and mcp.server.operation.duration
// histograms (a passive observer's estimates, metric.go) and mcptrail's
// elicitation count and human wait. A request's _meta traceparent
// and tracestate parent its span. Export is OTLP over HTTP/protobuf or
// gRPC, batched by the SDK; over HTTP, a redirect is followed only within
// the endpoint's origin (httpsink.SameOrigin).
//
// It sits under internal/events, fed by a Pipeline's bounded queue. A Sink
// runs on one goroutine (Run); its counters may be read from any.
package otlp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/httpsink"
)

// Protocols.
const (
	ProtocolHTTP = "http/protobuf"
	ProtocolGRPC = "grpc"
)

// ScopeName is the instrumentation scope of mcptrail's spans and logs.
const ScopeName = "github.com/mcptrail/mcptrail"

// Options configure a Sink.
type Options struct {
	// Endpoint is the collector's base URL (http://host:4318 for
	// http/protobuf, whose /v1/traces and /v1/logs paths are appended;
	// http://host:4317 for grpc). An http scheme means no TLS.
	Endpoint string
	// Protocol is ProtocolHTTP (the default when empty) or ProtocolGRPC.
	Protocol string
	// Headers are sent with every export.
	Headers map[string]string
	// BatchTimeout is how long the SDK batches before exporting [1s].
	BatchTimeout time.Duration
	// ServiceName is the resource's service.name ["mcptrail"].
	ServiceName string
}

// Sink turns events into spans, span events and log records.
type Sink struct {
	tp        *sdktrace.TracerProvider
	lp        *sdklog.LoggerProvider
	mp        *sdkmetric.MeterProvider // nil: no metrics (WriteJSON)
	inst      instruments              // metric.go
	tracer    trace.Tracer
	logger    otellog.Logger
	delivered atomic.Int64
	failed    atomic.Int64
	observed  func(*events.Event) time.Time
	// pending holds elicitation events by root, until the root's
	// operation event makes the span they belong to.
	pending map[string][]events.Event
}

// maxPending bounds the elicitation events waiting for their span.
const maxPending = 1024

// New builds the exporters and providers. Nothing is sent until Run.
func New(ctx context.Context, opts *Options) (*Sink, error) {
	u, err := url.Parse(opts.Endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("otlp endpoint %q is not an http or https URL", opts.Endpoint)
	}
	te, le, err := exporters(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	bt := opts.BatchTimeout
	if bt <= 0 {
		bt = time.Second
	}
	res := serviceResource(opts.ServiceName)
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(te, sdktrace.WithBatchTimeout(bt)))
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(sdklog.NewBatchProcessor(le, sdklog.WithExportInterval(bt))))
	s := newSink(tp, lp, func(*events.Event) time.Time { return time.Now() })
	if err := s.meter(ctx, u, opts, res); err != nil {
		return nil, err
	}
	return s, nil
}

// meter adds the metrics: a periodic reader exports them every 60s (or
// OTEL_METRIC_EXPORT_INTERVAL ms, which the SDK reads) and at the end.
func (s *Sink) meter(ctx context.Context, u *url.URL, opts *Options, res *resource.Resource) error {
	me, err := metricExporter(ctx, u, opts)
	if err != nil {
		return err
	}
	s.mp = sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(sdkmetric.NewPeriodicReader(me)))
	if s.inst, err = newInstruments(s.mp.Meter(ScopeName)); err != nil {
		return fmt.Errorf("creating the OTLP metrics: %w", err)
	}
	return nil
}

// serviceResource is the resource of mcptrail's telemetry.
func serviceResource(name string) *resource.Resource {
	if name == "" {
		name = "mcptrail"
	}
	return resource.NewSchemaless(attribute.String("service.name", name))
}

// newSink builds a Sink on providers: the live sink's export over the
// network and WriteJSON's to a file share everything else. observed gives
// a log record's observed timestamp.
func newSink(tp *sdktrace.TracerProvider, lp *sdklog.LoggerProvider, observed func(*events.Event) time.Time) *Sink {
	return &Sink{
		tp: tp, lp: lp, observed: observed,
		tracer:  tp.Tracer(ScopeName),
		logger:  lp.Logger(ScopeName),
		pending: make(map[string][]events.Event),
	}
}

// exportTimeout bounds one OTLP/HTTP export, as the SDK's default does.
const exportTimeout = 10 * time.Second

// httpClient is the client of the OTLP/HTTP exporters: the SDK's own
// would follow a redirect to any host with the batch and the --otlp-header
// values; this one follows only same-origin redirects.
func httpClient() *http.Client { return httpsink.NewClient(exportTimeout) }

// exporters builds the trace and log exporters for the protocol.
func exporters(ctx context.Context, u *url.URL, opts *Options) (sdktrace.SpanExporter, sdklog.Exporter, error) {
	insecure := u.Scheme == "http"
	base := strings.TrimSuffix(u.Path, "/")
	switch opts.Protocol {
	case "", ProtocolHTTP:
		topts := []otlptracehttp.Option{otlptracehttp.WithEndpoint(u.Host), otlptracehttp.WithURLPath(base + "/v1/traces"),
			otlptracehttp.WithHeaders(opts.Headers), otlptracehttp.WithHTTPClient(httpClient())}
		lopts := []otlploghttp.Option{otlploghttp.WithEndpoint(u.Host), otlploghttp.WithURLPath(base + "/v1/logs"),
			otlploghttp.WithHeaders(opts.Headers), otlploghttp.WithHTTPClient(httpClient())}
		if insecure {
			topts = append(topts, otlptracehttp.WithInsecure())
			lopts = append(lopts, otlploghttp.WithInsecure())
		}
		te, err := otlptracehttp.New(ctx, topts...)
		if err != nil {
			return nil, nil, fmt.Errorf("creating the OTLP trace exporter: %w", err)
		}
		le, err := otlploghttp.New(ctx, lopts...)
		if err != nil {
			return nil, nil, fmt.Errorf("creating the OTLP log exporter: %w", err)
		}
		return te, le, nil
	case ProtocolGRPC:
		topts := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(u.Host), otlptracegrpc.WithHeaders(opts.Headers)}
		lopts := []otlploggrpc.Option{otlploggrpc.WithEndpoint(u.Host), otlploggrpc.WithHeaders(opts.Headers)}
		if insecure {
			topts = append(topts, otlptracegrpc.WithInsecure())
			lopts = append(lopts, otlploggrpc.WithInsecure())
		}
		te, err := otlptracegrpc.New(ctx, topts...)
		if err != nil {
			return nil, nil, fmt.Errorf("creating the OTLP trace exporter: %w", err)
		}
		le, err := otlploggrpc.New(ctx, lopts...)
		if err != nil {
			return nil, nil, fmt.Errorf("creating the OTLP log exporter: %w", err)
		}
		return te, le, nil
	}
	return nil, nil, fmt.Errorf("unknown OTLP protocol %q (want %s or %s)", opts.Protocol, ProtocolHTTP, ProtocolGRPC)
}

// Name implements events.Sink.
func (s *Sink) Name() string { return "otlp" }

// Delivered implements events.Sink: events handed to the SDK, which
// batches and exports them (its own failures are not seen here).
func (s *Sink) Delivered() int64 { return s.delivered.Load() }

// Failed implements events.Sink.
func (s *Sink) Failed() int64 { return s.failed.Load() }

// Run implements events.Sink: it records each event, then flushes and
// shuts the SDK down within ctx.
func (s *Sink) Run(ctx context.Context, in <-chan events.Event) error {
	for e := range in {
		s.record(&e)
		s.delivered.Add(1)
	}
	var errs []error
	if err := s.tp.ForceFlush(ctx); err != nil {
		errs = append(errs, fmt.Errorf("flushing spans: %w", err))
	}
	if err := s.lp.ForceFlush(ctx); err != nil {
		errs = append(errs, fmt.Errorf("flushing logs: %w", err))
	}
	errs = append(errs, s.tp.Shutdown(ctx), s.lp.Shutdown(ctx))
	if s.mp != nil {
		// Shutdown collects and exports the metrics one last time.
		if err := s.mp.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("exporting metrics: %w", err))
		}
	}
	return errors.Join(errs...)
}

// record turns one event into telemetry.
func (s *Sink) record(e *events.Event) {
	s.inst.measure(context.Background(), e)
	if e.Elicitation != nil {
		s.log(e)
		k := rootKey(e.Elicitation.Root)
		if k != "" && (len(s.pending) < maxPending || s.pending[k] != nil) {
			s.pending[k] = append(s.pending[k], *e)
		}
		return
	}
	s.span(e)
}

// rootKey identifies an operation by its root request's method and id.
func rootKey(r *events.Root) string {
	if r == nil || len(r.RequestID) == 0 {
		return ""
	}
	return r.Method + "\x00" + string(r.RequestID)
}
