package diff

import (
	"github.com/mcptrail/mcptrail/internal/store"
)

// findingRefs describes the session's findings with the method and
// target of the call each concerns.
func findingRefs(s *store.Snapshot) []FindingRef {
	out := make([]FindingRef, 0, s.Findings.Len())
	for f := range s.Findings.All() {
		ref := FindingRef{Rule: f.Rule, Severity: string(f.Severity), Seq: f.Seq, Message: f.Message}
		if f.Call >= 0 && f.Call < s.Calls.Len() {
			c := s.Calls.At(f.Call)
			ref.Method, ref.Target = c.Method, c.Target
		}
		out = append(out, ref)
	}
	return out
}

// onlyIn returns the findings of x that y has no match for: each finding
// of y (rule, method, target) matches one of x, in order.
func onlyIn(x, y []FindingRef) []FindingRef {
	have := map[[3]string]int{}
	for _, f := range y {
		have[[3]string{f.Rule, f.Method, f.Target}]++
	}
	var out []FindingRef
	for _, f := range x {
		k := [3]string{f.Rule, f.Method, f.Target}
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, f)
	}
	return out
}
