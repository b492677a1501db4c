package otlp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/mcptrail/mcptrail/internal/spool"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	respb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// traceCollector is an otlptrace.Client that encodes each span it is sent
// at once and spools the encodings, one spool per (resource, scope), so
// that the file's traces line can be written without holding the spans.
// The line is what one ExportTraceServiceRequest merging every upload into
// one ResourceSpans per resource and one ScopeSpans per scope encodes to:
// writeLine encodes that request with a placeholder span in each scope and
// splices each spool in place of its placeholder.
type traceCollector struct {
	spoolDir string

	mu     sync.Mutex
	groups []*spanGroup
	err    error
}

// spanGroup is the spans of one scope of one resource, in upload order.
type spanGroup struct {
	resource  *respb.Resource
	schemaURL string
	scope     *tracepb.ScopeSpans // scope and schema URL, without spans
	spans     *spool.Spool
	n         int
}

func (c *traceCollector) Start(context.Context) error { return nil }
func (c *traceCollector) Stop(context.Context) error  { return nil }

// UploadTraces encodes and spools each span; errors are kept for writeLine.
func (c *traceCollector) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rs {
		for _, ss := range r.GetScopeSpans() {
			g := c.group(r, ss)
			for _, sp := range ss.GetSpans() {
				c.add(g, sp)
			}
		}
	}
	return nil
}

// group returns the group of (r's resource, ss's scope), adding it when new.
func (c *traceCollector) group(r *tracepb.ResourceSpans, ss *tracepb.ScopeSpans) *spanGroup {
	for _, g := range c.groups {
		if proto.Equal(g.resource, r.GetResource()) && g.schemaURL == r.GetSchemaUrl() &&
			proto.Equal(g.scope.GetScope(), ss.GetScope()) && g.scope.GetSchemaUrl() == ss.GetSchemaUrl() {
			return g
		}
	}
	g := &spanGroup{
		resource: r.GetResource(), schemaURL: r.GetSchemaUrl(),
		scope: &tracepb.ScopeSpans{Scope: ss.GetScope(), SchemaUrl: ss.GetSchemaUrl()},
		spans: spool.New(c.spoolDir, ".mcptrail-otlp", 0),
	}
	c.groups = append(c.groups, g)
	return g
}

// add spools one span's encoding, after a comma unless it is the first.
func (c *traceCollector) add(g *spanGroup, sp *tracepb.Span) {
	if c.err != nil {
		return
	}
	b, err := encodeCompact(sp)
	if err == nil && g.n > 0 {
		_, err = g.spans.Write([]byte{','})
	}
	if err == nil {
		_, err = g.spans.Write(b)
	}
	g.n++
	c.err = err
}

// encodeCompact encodes m in the OTLP/JSON mapping, compact, no newline.
func encodeCompact(m proto.Message) ([]byte, error) {
	b, err := marshalLine(m)
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
}

// placeholder is the span standing for group i's spans in the envelope.
func placeholder(i int) *tracepb.Span {
	return &tracepb.Span{Name: "\x00mcptrail-spans-" + strconv.Itoa(i) + "\x00"}
}

// writeLine writes the traces line, or nothing when no span was sent.
func (c *traceCollector) writeLine(w io.Writer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	if len(c.groups) == 0 {
		return nil
	}
	env, err := encodeCompact(c.envelope())
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	for i, g := range c.groups {
		ph, err := encodeCompact(placeholder(i))
		if err != nil {
			return err
		}
		at := bytes.Index(env, ph)
		if at < 0 {
			return errors.New("encoding OTLP/JSON: span placeholder not found")
		}
		if _, err := bw.Write(env[:at]); err != nil {
			return fmt.Errorf("writing OTLP/JSON: %w", err)
		}
		if _, err := g.spans.WriteTo(bw); err != nil {
			return fmt.Errorf("writing OTLP/JSON: %w", err)
		}
		env = env[at+len(ph):]
	}
	if _, err := bw.Write(append(env, '\n')); err != nil {
		return fmt.Errorf("writing OTLP/JSON: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing OTLP/JSON: %w", err)
	}
	return nil
}

// envelope is the merged request with a placeholder span per group: one
// ResourceSpans per resource and one ScopeSpans per scope, each in order
// of first upload.
func (c *traceCollector) envelope() *coltrace.ExportTraceServiceRequest {
	var out []*tracepb.ResourceSpans
	for i, g := range c.groups {
		var dst *tracepb.ResourceSpans
		for _, o := range out {
			if proto.Equal(o.GetResource(), g.resource) && o.GetSchemaUrl() == g.schemaURL {
				dst = o
			}
		}
		if dst == nil {
			dst = &tracepb.ResourceSpans{Resource: g.resource, SchemaUrl: g.schemaURL}
			out = append(out, dst)
		}
		ss := &tracepb.ScopeSpans{Scope: g.scope.GetScope(), SchemaUrl: g.scope.GetSchemaUrl(),
			Spans: []*tracepb.Span{placeholder(i)}}
		dst.ScopeSpans = append(dst.ScopeSpans, ss)
	}
	return &coltrace.ExportTraceServiceRequest{ResourceSpans: out}
}

// release removes the spools' files.
func (c *traceCollector) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, g := range c.groups {
		_ = g.spans.Remove()
	}
}
