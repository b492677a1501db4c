package prom

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
)

func ms(v float64) *float64 { return &v }

// TestAdd feeds the events of two MRTR tool calls (one accepted, one
// declined) and a plain call, and the records of a session, and reads the
// exposition back: counts and sums are what the events said.
func TestAdd(t *testing.T) {
	t.Parallel()
	s := New(nil)
	s.Record(&capture.Record{Type: capture.TypeSession, SessionID: "s1", Label: "demo", Transport: "stdio"})
	s.Record(&capture.Record{Type: capture.TypeFrame, Dir: capture.C2S, Size: 100})
	s.Record(&capture.Record{Type: capture.TypeFrame, Dir: capture.S2C, Size: 50})
	s.Record(&capture.Record{Type: capture.TypeFrame, Dir: capture.C2S, Size: 25})
	evs := []events.Event{
		{EventType: events.TypeElicitCreate, Elicitation: &events.Elicitation{Mode: "form", Status: "asked"}},
		{EventType: events.TypeElicitResponse, Elicitation: &events.Elicitation{Mode: "form", Status: "answered", Action: "accept", ElapsedMS: ms(1500)}},
		{EventType: "mcp:tools/call", Method: "tools/call", ResourceName: "confirm", Status: "ok", DurationMS: ms(2000), WaitMS: ms(1500), Rounds: 2},
		{EventType: events.TypeElicitCreate, Elicitation: &events.Elicitation{Mode: "url", Status: "asked"}},
		{EventType: events.TypeElicitResponse, Elicitation: &events.Elicitation{Mode: "url", Status: "answered", Action: "decline", ElapsedMS: ms(250)}},
		{EventType: "mcp:tools/call", Method: "tools/call", ResourceName: "confirm", Status: "tool_error", DurationMS: ms(400), WaitMS: ms(250), Rounds: 2},
		{EventType: "mcp:resources/read", Method: "resources/read", ResourceName: "file:///a", Status: "ok", DurationMS: ms(5), WaitMS: ms(0), Rounds: 1},
	}
	for i := range evs {
		s.Add(&evs[i])
	}
	want := `
# HELP mcptrail_capture_frame_bytes_total Bytes of the frames captured, by direction (c2s, s2c).
# TYPE mcptrail_capture_frame_bytes_total counter
mcptrail_capture_frame_bytes_total{dir="c2s"} 125
mcptrail_capture_frame_bytes_total{dir="s2c"} 50
# HELP mcptrail_capture_records_total Capture records of the session, by record type.
# TYPE mcptrail_capture_records_total counter
mcptrail_capture_records_total{type="frame"} 3
mcptrail_capture_records_total{type="session"} 1
# HELP mcptrail_elicitations_answered_total Elicitation questions answered, by mode and action (accept, decline, cancel; error when the client answered with an error).
# TYPE mcptrail_elicitations_answered_total counter
mcptrail_elicitations_answered_total{action="accept",mode="form"} 1
mcptrail_elicitations_answered_total{action="decline",mode="url"} 1
# HELP mcptrail_elicitations_asked_total Elicitation questions asked, by mode (form, url).
# TYPE mcptrail_elicitations_asked_total counter
mcptrail_elicitations_asked_total{mode="form"} 1
mcptrail_elicitations_asked_total{mode="url"} 1
# HELP mcptrail_session_info Always 1: the tap's session, its label and transport (join on it to label the other metrics).
# TYPE mcptrail_session_info gauge
mcptrail_session_info{label="demo",session_id="s1",transport="stdio"} 1
`
	names := []string{"mcptrail_capture_frame_bytes_total", "mcptrail_capture_records_total",
		"mcptrail_elicitations_answered_total", "mcptrail_elicitations_asked_total", "mcptrail_session_info"}
	if err := testutil.GatherAndCompare(s.Registry(), strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	counts := []struct {
		name string
		want int
	}{
		{"mcptrail_operation_duration_seconds", 3}, // three label sets
		{"mcptrail_operation_wait_seconds", 1},     // MRTR calls only, one label set
		{"mcptrail_elicitation_human_wait_seconds", 2},
	}
	for _, c := range counts {
		n, err := testutil.GatherAndCount(s.Registry(), c.name)
		if err != nil || n != c.want {
			t.Errorf("%s: %d series, %v; want %d", c.name, n, err, c.want)
		}
	}
	hists := []struct {
		name, labels string
		count        uint64
		sum          float64
	}{
		{"mcptrail_operation_duration_seconds", "method=tools/call,status=ok,tool=confirm", 1, 2},
		{"mcptrail_operation_duration_seconds", "method=tools/call,status=tool_error,tool=confirm", 1, 0.4},
		{"mcptrail_operation_duration_seconds", "method=resources/read,status=ok,tool=", 1, 0.005},
		{"mcptrail_elicitation_human_wait_seconds", "action=accept,mode=form", 1, 1.5},
	}
	for _, h := range hists {
		count, sum := histogram(t, s, h.name, h.labels)
		if count != h.count || sum != h.sum {
			t.Errorf("%s{%s}: count %d sum %g, want %d %g", h.name, h.labels, count, sum, h.count, h.sum)
		}
	}
}

// histogram returns the sample count and sum of one series.
func histogram(t *testing.T, s *Sink, name, labels string) (uint64, float64) {
	t.Helper()
	mfs, err := s.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			var l []string
			for _, lp := range m.GetLabel() {
				l = append(l, lp.GetName()+"="+lp.GetValue())
			}
			if strings.Join(l, ",") == labels {
				return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
			}
		}
	}
	t.Fatalf("no series %s{%s}", name, labels)
	return 0, 0
}

// TestLabelCap feeds calls of more distinct tool names (and methods) than
// the cap: /metrics keeps the first DefaultMaxLabelValues tools, reports
// the rest under tool="_other", counts what it folded, and stays bounded.
func TestLabelCap(t *testing.T) {
	t.Parallel()
	s := New(nil)
	const extra = 300
	n := DefaultMaxLabelValues + extra
	for i := range n {
		name := fmt.Sprintf("tool-%05d", i)
		s.Add(&events.Event{Method: "tools/call", ResourceName: name, Status: "ok", DurationMS: ms(1), WaitMS: ms(0.5), Rounds: 2})
		s.Add(&events.Event{Method: "x/" + name, Status: "ok", DurationMS: ms(1)})
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	tools := map[string]bool{}
	for line := range strings.Lines(body) {
		if _, rest, ok := strings.Cut(line, `tool="`); ok && strings.HasPrefix(line, "mcptrail_operation_duration_seconds_count") {
			tools[rest[:strings.IndexByte(rest, '"')]] = true
		}
	}
	if len(tools) != DefaultMaxLabelValues+2 || !tools[OtherValue] || !tools[""] || tools[fmt.Sprintf("tool-%05d", n-1)] {
		t.Errorf("%d tool label values (with %q: %v, with \"\": %v), want the first %d, %q and \"\"", len(tools), OtherValue, tools[OtherValue], tools[""], DefaultMaxLabelValues, OtherValue)
	}
	for _, want := range []string{
		fmt.Sprintf(`mcptrail_operation_duration_seconds_count{method="tools/call",status="ok",tool="%s"} %d`, OtherValue, extra),
		fmt.Sprintf(`mcptrail_operation_wait_seconds_count{method="tools/call",tool="%s"} %d`, OtherValue, extra),
		fmt.Sprintf(`mcptrail_operation_duration_seconds_count{method="%s",status="ok",tool=""} %d`, OtherValue, extra+1),
		fmt.Sprintf(`mcptrail_metrics_label_values_folded_total{label="tool"} %d`, extra),
		fmt.Sprintf(`mcptrail_metrics_label_values_folded_total{label="method"} %d`, extra+1),
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// Each series is about 20 lines of at most 150 bytes: 1,000 tools and
	// methods (plus the two folds) stay well under 6 MB, where 50,000 tool
	// names made 256 MB.
	t.Logf("/metrics: %d bytes", len(body))
	if len(body) > 6<<20 {
		t.Errorf("/metrics is %d bytes", len(body))
	}
}
