package otlp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcptrail/mcptrail/internal/events"
)

// WriteJSON writes events as an OTLP/JSON file, as the OpenTelemetry
// Collector's file exporter writes one and its otlpjsonfile receiver reads
// it: a line holding an ExportTraceServiceRequest (the spans and their
// elicitation span events) and a line holding an ExportLogsServiceRequest
// (the elicitation log records), each in the protobuf JSON mapping with the
// OTLP/JSON deviations (trace and span ids in hex, enums as numbers). A
// line is left out when it would be empty. The spans and records are built
// by the same Sink as the live export, through the SDK; ids are derived
// from seed (the session id) so that the same events give the same file.
func WriteJSON(ctx context.Context, w io.Writer, evs []events.Event, seed string) error {
	tc := &traceCollector{}
	te, err := otlptrace.New(ctx, tc)
	if err != nil {
		return fmt.Errorf("creating the OTLP/JSON trace exporter: %w", err)
	}
	lc := &logCollector{}
	res := serviceResource("")
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSyncer(te), sdktrace.WithIDGenerator(newSeededIDs(seed)))
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(sdklog.NewSimpleProcessor(lc)))
	// Observed timestamps are the events' own, so the file is reproducible.
	s := newSink(tp, lp, func(e *events.Event) time.Time { return e.Timestamp })
	in := make(chan events.Event)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, in) }()
	for i := range evs {
		in <- evs[i]
	}
	close(in)
	if err := <-done; err != nil {
		return fmt.Errorf("building OTLP data: %w", err)
	}
	var lines []proto.Message
	if spans := tc.merged(); len(spans) > 0 {
		lines = append(lines, &coltrace.ExportTraceServiceRequest{ResourceSpans: spans})
	}
	if logs := lc.request(); logs != nil {
		lines = append(lines, logs)
	}
	for _, m := range lines {
		b, err := marshalLine(m)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("writing OTLP/JSON: %w", err)
		}
	}
	return nil
}

// marshalLine encodes m in the OTLP/JSON mapping, compact, with a newline.
func marshalLine(m proto.Message) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encoding OTLP/JSON: %w", err)
	}
	out, err := hexIDs(b)
	if err != nil {
		return nil, fmt.Errorf("encoding OTLP/JSON: %w", err)
	}
	return append(out, '\n'), nil
}

// idField reports whether OTLP/JSON encodes member name in hex where the
// protobuf JSON mapping uses base64.
func idField(name string) bool {
	return name == "traceId" || name == "spanId" || name == "parentSpanId"
}

// hexIDs re-encodes protojson output compactly (protojson's whitespace is
// deliberately unstable) with the id members in hex.
func hexIDs(in []byte) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(in))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	name := ""
	for {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		isName := tok.Kind() == '"' && dec.StackDepth() > 0 && isObjectName(dec)
		if tok.Kind() == '"' && !isName && idField(name) {
			raw, err := base64.StdEncoding.DecodeString(tok.String())
			if err != nil {
				return nil, fmt.Errorf("id %s: %w", name, err)
			}
			tok = jsontext.String(hex.EncodeToString(raw))
		}
		name = ""
		if isName {
			name = tok.String()
		}
		if err := enc.WriteToken(tok); err != nil {
			return nil, err
		}
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

// isObjectName reports whether the token just read was an object member
// name: inside an object, names are the odd-numbered tokens.
func isObjectName(dec *jsontext.Decoder) bool {
	kind, n := dec.StackIndex(dec.StackDepth())
	return kind == '{' && n%2 == 1
}

// traceCollector is an otlptrace.Client that keeps what it is sent.
type traceCollector struct {
	mu    sync.Mutex
	spans []*tracepb.ResourceSpans
}

func (c *traceCollector) Start(context.Context) error { return nil }
func (c *traceCollector) Stop(context.Context) error  { return nil }

func (c *traceCollector) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, rs...)
	return nil
}

// merged folds the uploads (one per span, all of one resource and scope)
// into one ResourceSpans per resource and one ScopeSpans per scope.
func (c *traceCollector) merged() []*tracepb.ResourceSpans {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*tracepb.ResourceSpans
	for _, rs := range c.spans {
		var dst *tracepb.ResourceSpans
		for _, o := range out {
			if proto.Equal(o.GetResource(), rs.GetResource()) && o.GetSchemaUrl() == rs.GetSchemaUrl() {
				dst = o
			}
		}
		if dst == nil {
			dst = &tracepb.ResourceSpans{Resource: rs.GetResource(), SchemaUrl: rs.GetSchemaUrl()}
			out = append(out, dst)
		}
		for _, ss := range rs.GetScopeSpans() {
			mergeScope(dst, ss)
		}
	}
	return out
}

func mergeScope(dst *tracepb.ResourceSpans, ss *tracepb.ScopeSpans) {
	for _, o := range dst.ScopeSpans {
		if proto.Equal(o.GetScope(), ss.GetScope()) && o.GetSchemaUrl() == ss.GetSchemaUrl() {
			o.Spans = append(o.Spans, ss.GetSpans()...)
			return
		}
	}
	dst.ScopeSpans = append(dst.ScopeSpans, ss)
}

// seededIDs generates trace and span ids from a seed and a counter.
type seededIDs struct {
	mu   sync.Mutex
	seed uint64
	n    uint64
}

func newSeededIDs(seed string) *seededIDs {
	h := fnv.New64a()
	_, _ = io.WriteString(h, seed)
	return &seededIDs{seed: h.Sum64()}
}

func (g *seededIDs) next() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	// splitmix64 of seed+n: distinct, well spread, never zero in practice.
	z := g.seed + g.n*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31 | 1
}

// NewIDs implements sdktrace.IDGenerator.
func (g *seededIDs) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	var t trace.TraceID
	binary.BigEndian.PutUint64(t[:8], g.next())
	binary.BigEndian.PutUint64(t[8:], g.next())
	return t, g.span()
}

// NewSpanID implements sdktrace.IDGenerator.
func (g *seededIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID { return g.span() }

func (g *seededIDs) span() trace.SpanID {
	var s trace.SpanID
	binary.BigEndian.PutUint64(s[:], g.next())
	return s
}
