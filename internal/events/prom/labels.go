package prom

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// OtherValue is the label value every value past a label's cap is folded
// into. The underscore keeps it apart from a tool or method really called
// "other" (OpenTelemetry's error.type has "_OTHER" for the same reason).
const OtherValue = "_other"

// DefaultMaxLabelValues is how many distinct values each label read from
// the wire (method, tool, status, mode, action) keeps by default.
const DefaultMaxLabelValues = 500

// labelCap bounds the distinct values of the labels whose values come from
// the wire, so that a server listing 50,000 tools, or a client inventing
// a method per call, cannot grow /metrics without bound: each label keeps
// the first limit values it sees, and folds any other into OtherValue,
// counting each observation folded. The empty value is never counted
// (it is the tool of every call that is not a tools/call).
type labelCap struct {
	limit  int
	folded *prometheus.CounterVec
	mu     sync.Mutex
	seen   map[string]map[string]struct{} // label name → values kept
}

func newLabelCap(limit int) *labelCap {
	c := &labelCap{limit: limit, seen: map[string]map[string]struct{}{}}
	c.folded = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcptrail_metrics_label_values_folded_total",
		Help: "Observations whose label value was reported as " + OtherValue + " because the label already had its maximum of distinct values, by label.",
	}, []string{"label"})
	return c
}

// value returns v, or OtherValue when label already holds limit other
// values (and counts the fold).
func (c *labelCap) value(label, v string) string {
	if v == "" {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	vs := c.seen[label]
	if _, ok := vs[v]; ok {
		return v
	}
	if len(vs) >= c.limit {
		c.folded.WithLabelValues(label).Inc()
		return OtherValue
	}
	if vs == nil {
		vs = map[string]struct{}{}
		c.seen[label] = vs
	}
	vs[v] = struct{}{}
	return v
}
