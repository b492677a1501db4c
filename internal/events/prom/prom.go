// Package prom is the Prometheus view of a live session: operation
// durations by method, tool and status, elicitations by mode and action,
// the time people took to answer, and what the capture recorded. It is
// fed like every other analytics sink, by a Pipeline's events (which the
// store's change feed builds; nothing here parses a frame), plus the
// records the Pipeline reads (OnRecord), and serves the Prometheus text
// format through Handler. The labels whose values come from the wire are
// capped (labels.go), so /metrics stays bounded whatever the peers send.
//
// It sits under internal/events beside the file, HTTP and OTLP sinks. A
// Sink runs on one goroutine (Run); Record is called from the pipeline's
// store goroutine; Handler and the counters may be used from any.
package prom

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
)

// Buckets returns the duration histograms' bounds in seconds: the ones
// the OpenTelemetry MCP semantic conventions advise for operation
// durations.
func Buckets() []float64 {
	return []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
}

// WaitBuckets returns the human wait histogram's bounds in seconds:
// people answer in seconds to minutes.
func WaitBuckets() []float64 {
	return []float64{0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800}
}

// Options configure a Sink; nil means the defaults.
type Options struct {
	// MaxLabelValues is how many distinct values each label read from the
	// wire (method, tool, status, mode, action) keeps; later ones are
	// folded into OtherValue and counted in
	// mcptrail_metrics_label_values_folded_total
	// [DefaultMaxLabelValues].
	MaxLabelValues int
}

// Sink keeps a session's metrics in its own registry.
type Sink struct {
	reg       *prometheus.Registry
	labels    *labelCap
	ops       *prometheus.HistogramVec
	wait      *prometheus.HistogramVec
	asked     *prometheus.CounterVec
	answered  *prometheus.CounterVec
	human     *prometheus.HistogramVec
	records   *prometheus.CounterVec
	bytes     *prometheus.CounterVec
	info      *prometheus.GaugeVec
	delivered atomic.Int64
}

// New returns a Sink with its own registry.
func New(opts *Options) *Sink {
	limit := DefaultMaxLabelValues
	if opts != nil && opts.MaxLabelValues > 0 {
		limit = opts.MaxLabelValues
	}
	s := &Sink{reg: prometheus.NewRegistry(), labels: newLabelCap(limit)}
	s.ops = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "mcptrail_operation_duration_seconds", Buckets: Buckets(),
		Help: "Client operations from request seen to final response seen at the tap (all MRTR rounds and the human wait included).",
	}, []string{"method", "tool", "status"})
	s.wait = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "mcptrail_operation_wait_seconds", Buckets: Buckets(),
		Help: "The part of each operation spent between MRTR rounds, waiting on the client (and its user) for answers.",
	}, []string{"method", "tool"})
	s.asked = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcptrail_elicitations_asked_total",
		Help: "Elicitation questions asked, by mode (form, url).",
	}, []string{"mode"})
	s.answered = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcptrail_elicitations_answered_total",
		Help: "Elicitation questions answered, by mode and action (accept, decline, cancel; error when the client answered with an error).",
	}, []string{"mode", "action"})
	s.human = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "mcptrail_elicitation_human_wait_seconds", Buckets: WaitBuckets(),
		Help: "Time from an elicitation question to its answer, as seen at the tap.",
	}, []string{"mode", "action"})
	s.records = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcptrail_capture_records_total",
		Help: "Capture records of the session, by record type.",
	}, []string{"type"})
	s.bytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcptrail_capture_frame_bytes_total",
		Help: "Bytes of the frames captured, by direction (c2s, s2c).",
	}, []string{"dir"})
	s.info = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "mcptrail_session_info",
		Help: "Always 1: the tap's session, its label and transport (join on it to label the other metrics).",
	}, []string{"session_id", "label", "transport"})
	s.reg.MustRegister(s.ops, s.wait, s.asked, s.answered, s.human, s.records, s.bytes, s.info, s.labels.folded)
	return s
}

// Handler serves the registry in the Prometheus exposition formats.
func (s *Sink) Handler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})
}

// Registry is the Sink's registry (for tests and embedding).
func (s *Sink) Registry() *prometheus.Registry { return s.reg }

// Record counts one capture record (a Pipeline's OnRecord).
func (s *Sink) Record(r *capture.Record) {
	if r.Type == capture.TypeSession {
		s.info.WithLabelValues(r.SessionID, r.Label, r.Transport).Set(1)
	}
	s.records.WithLabelValues(string(r.Type)).Inc()
	if r.Type == capture.TypeFrame && r.Size > 0 {
		s.bytes.WithLabelValues(string(r.Dir)).Add(float64(r.Size))
	}
}

// Name implements events.Sink.
func (s *Sink) Name() string { return "metrics" }

// Delivered implements events.Sink.
func (s *Sink) Delivered() int64 { return s.delivered.Load() }

// Failed implements events.Sink: updating a metric cannot fail.
func (s *Sink) Failed() int64 { return 0 }

// Wait implements events.Waiter: updating a metric is quick, so the
// pipeline waits rather than lose a count.
func (s *Sink) Wait() bool { return true }

// Run implements events.Sink.
func (s *Sink) Run(_ context.Context, in <-chan events.Event) error {
	for e := range in {
		s.Add(&e)
		s.delivered.Add(1)
	}
	return nil
}

// Add updates the metrics for one event. Label values that come from
// the wire pass the label cap (Options.MaxLabelValues).
func (s *Sink) Add(e *events.Event) {
	if el := e.Elicitation; el != nil {
		s.elicitation(e, el)
		return
	}
	if e.DurationMS == nil {
		return
	}
	tool := ""
	if e.Method == "tools/call" {
		tool = s.labels.value("tool", e.ResourceName)
	}
	method := s.labels.value("method", e.Method)
	s.ops.WithLabelValues(method, tool, s.labels.value("status", e.Status)).Observe(*e.DurationMS / 1000)
	if e.WaitMS != nil && e.Rounds > 1 {
		s.wait.WithLabelValues(method, tool).Observe(*e.WaitMS / 1000)
	}
}

// elicitation updates the elicitation metrics for a create or response
// event.
func (s *Sink) elicitation(e *events.Event, el *events.Elicitation) {
	mode := s.labels.value("mode", el.Mode)
	if e.EventType == events.TypeElicitCreate {
		s.asked.WithLabelValues(mode).Inc()
		return
	}
	action := el.Action
	if action == "" {
		action = el.Status // "error": the client answered with an error
	}
	action = s.labels.value("action", action)
	s.answered.WithLabelValues(mode, action).Inc()
	if el.ElapsedMS != nil {
		s.human.WithLabelValues(mode, action).Observe(*el.ElapsedMS / 1000)
	}
}
