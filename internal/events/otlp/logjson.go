package otlp

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	respb "go.opentelemetry.io/proto/otlp/resource/v1"
)

// logCollector is an sdklog.Exporter that keeps the records it is sent as
// OTLP log records (the SDK's log exporters keep their transform
// internal; this one covers what the Sink emits: attribute values of every
// attribute.Type, no body).
type logCollector struct {
	mu       sync.Mutex
	resource *respb.Resource
	scope    *common.InstrumentationScope
	records  []*logspb.LogRecord
}

// Export implements sdklog.Exporter.
func (c *logCollector) Export(_ context.Context, recs []sdklog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range recs {
		r := &recs[i]
		if c.resource == nil {
			c.resource = &respb.Resource{Attributes: keyValues(r.Resource().Attributes())}
			sc := r.InstrumentationScope()
			c.scope = &common.InstrumentationScope{Name: sc.Name, Version: sc.Version}
		}
		lr := &logspb.LogRecord{
			TimeUnixNano:         uint64(r.Timestamp().UnixNano()),
			ObservedTimeUnixNano: uint64(r.ObservedTimestamp().UnixNano()),
			SeverityNumber:       logspb.SeverityNumber(r.Severity()),
			SeverityText:         r.SeverityText(),
			EventName:            r.EventName(),
			Flags:                uint32(r.TraceFlags()),
		}
		if tid := r.TraceID(); tid.IsValid() {
			lr.TraceId = tid[:]
		}
		if sid := r.SpanID(); sid.IsValid() {
			lr.SpanId = sid[:]
		}
		r.WalkAttributes(func(kv attribute.KeyValue) bool {
			lr.Attributes = append(lr.Attributes, keyValue(kv))
			return true
		})
		c.records = append(c.records, lr)
	}
	return nil
}

// Shutdown implements sdklog.Exporter.
func (c *logCollector) Shutdown(context.Context) error { return nil }

// ForceFlush implements sdklog.Exporter.
func (c *logCollector) ForceFlush(context.Context) error { return nil }

// request returns the records as one export request, nil when none.
func (c *logCollector) request() *collogs.ExportLogsServiceRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.records) == 0 {
		return nil
	}
	return &collogs.ExportLogsServiceRequest{ResourceLogs: []*logspb.ResourceLogs{{
		Resource:  c.resource,
		ScopeLogs: []*logspb.ScopeLogs{{Scope: c.scope, LogRecords: c.records}},
	}}}
}

func keyValues(kvs []attribute.KeyValue) []*common.KeyValue {
	out := make([]*common.KeyValue, len(kvs))
	for i, kv := range kvs {
		out[i] = keyValue(kv)
	}
	return out
}

func keyValue(kv attribute.KeyValue) *common.KeyValue {
	return &common.KeyValue{Key: string(kv.Key), Value: anyValue(kv.Value)}
}

// anyValue converts an attribute value as the SDK's exporters do.
func anyValue(v attribute.Value) *common.AnyValue {
	switch v.Type() {
	case attribute.BOOL:
		return &common.AnyValue{Value: &common.AnyValue_BoolValue{BoolValue: v.AsBool()}}
	case attribute.INT64:
		return &common.AnyValue{Value: &common.AnyValue_IntValue{IntValue: v.AsInt64()}}
	case attribute.FLOAT64:
		return &common.AnyValue{Value: &common.AnyValue_DoubleValue{DoubleValue: v.AsFloat64()}}
	case attribute.STRING:
		return &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: v.AsString()}}
	case attribute.BOOLSLICE:
		return array(v.AsBoolSlice(), func(b bool) attribute.Value { return attribute.BoolValue(b) })
	case attribute.INT64SLICE:
		return array(v.AsInt64Slice(), func(n int64) attribute.Value { return attribute.Int64Value(n) })
	case attribute.FLOAT64SLICE:
		return array(v.AsFloat64Slice(), func(f float64) attribute.Value { return attribute.Float64Value(f) })
	case attribute.STRINGSLICE:
		return array(v.AsStringSlice(), func(s string) attribute.Value { return attribute.StringValue(s) })
	}
	return &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: v.String()}}
}

func array[T any](xs []T, val func(T) attribute.Value) *common.AnyValue {
	vs := make([]*common.AnyValue, len(xs))
	for i, x := range xs {
		vs[i] = anyValue(val(x))
	}
	return &common.AnyValue{Value: &common.AnyValue_ArrayValue{ArrayValue: &common.ArrayValue{Values: vs}}}
}
