package otlp

import (
	"context"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mcptrail/mcptrail/internal/events"
)

// TestMeasure records an MRTR tool call (2 s in all, 1.5 s of it between
// rounds) and its elicitation answer, and reads the metrics back: the
// client duration is the whole operation, the server's leaves out the
// wait between rounds, and the elicitation metrics carry mode and action.
func TestMeasure(t *testing.T) {
	t.Parallel()
	rd := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(rd))
	in, err := newInstruments(mp.Meter(ScopeName))
	if err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	ctx := context.Background()
	in.measure(ctx, &events.Event{EventType: events.TypeElicitCreate, Elicitation: &events.Elicitation{Mode: "form", Status: "asked"}})
	in.measure(ctx, &events.Event{EventType: events.TypeElicitResponse, ResourceName: "confirm",
		Elicitation: &events.Elicitation{Mode: "form", Status: "answered", Action: "decline", ElapsedMS: f(1500), Root: &events.Root{Method: "tools/call"}}})
	in.measure(ctx, &events.Event{Method: "tools/call", ResourceName: "confirm", ProtocolVersion: "2026-07-28", Status: "tool-error",
		Error: &events.Error{Type: "tool_error"}, DurationMS: f(2000), WaitMS: f(1500), ToolMS: f(500), Rounds: 2,
		Tags: map[string]string{"transport": "stdio"}})
	var rm metricdata.ResourceMetrics
	if err := rd.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					got[m.Name+" "+m.Unit] = p.Attributes.Encoded(attribute.DefaultEncoder()) + " count=" + itoa(p.Count) + " sum=" + ftoa(p.Sum)
				}
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					got[m.Name+" "+m.Unit] = p.Attributes.Encoded(attribute.DefaultEncoder()) + " value=" + itoa(uint64(p.Value))
				}
			}
		}
	}
	op := "error.type=tool_error,gen_ai.operation.name=execute_tool,gen_ai.tool.name=confirm,mcp.method.name=tools/call,mcp.protocol.version=2026-07-28,network.transport=pipe"
	el := "gen_ai.tool.name=confirm,mcptrail.elicitation.action=decline,mcptrail.elicitation.mode=form"
	want := map[string]string{
		"mcp.client.operation.duration s":            op + " count=1 sum=2",
		"mcp.server.operation.duration s":            op + " count=1 sum=0.5",
		"mcptrail.elicitation.human_wait.duration s": el + " count=1 sum=1.5",
		"mcptrail.elicitation.count {elicitation}":   el + " value=1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
}

func itoa(n uint64) string  { return strconv.FormatUint(n, 10) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
