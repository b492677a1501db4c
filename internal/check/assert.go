package check

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

// assertions returns the findings of the assertion rules a sets, ungraded.
// A call finding sits at the call's request; a session finding at seq 0.
func assertions(snap *store.Snapshot, a *Assertions) []finding.Finding {
	var out []finding.Finding
	if a.MaxDuration > 0 || a.MaxElicitationWait > 0 || a.MaxErrors != nil || len(a.ExpectTools) > 0 || len(a.ForbidTools) > 0 || a.ExpectNoPending {
		out = append(out, callAssertions(snap, a)...)
	}
	if a.MaxToolDuration > 0 || a.MaxRoundTrips > 0 {
		out = append(out, operationAssertions(snap, a)...)
	}
	if a.MaxToolDuration > 0 {
		out = append(out, plainToolTimes(snap, a)...)
	}
	return out
}

// callAssertions walks the calls once for the per-call assertions and the
// session counts.
func callAssertions(snap *store.Snapshot, a *Assertions) []finding.Finding {
	var out []finding.Finding
	errs := 0
	succeeded := map[string]bool{}
	called := map[string]int{}
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		human := c.Dir == capture.S2C && c.Method == mcp.MethodElicit
		switch {
		case c.Status == store.StatusPending:
		case human && a.MaxElicitationWait > 0 && ms(c.DurationMS) > a.MaxElicitationWait:
			out = append(out, finding.New(rules.AssertMaxElicitWait, c.RequestSeq, "%s waited %s for its answer, over --max-elicitation-wait %s",
				describe(snap, i), ms(c.DurationMS), a.MaxElicitationWait).OfCall(i))
		case !human && a.MaxDuration > 0 && ms(c.DurationMS) > a.MaxDuration:
			out = append(out, finding.New(rules.AssertMaxDuration, c.RequestSeq, "%s took %s, over --max-duration %s",
				describe(snap, i), ms(c.DurationMS), a.MaxDuration).OfCall(i))
		}
		if a.ExpectNoPending && c.Status == store.StatusPending {
			out = append(out, finding.New(rules.AssertNoPending, c.RequestSeq, "%s %s id %s got no answer (--expect-no-pending)",
				c.Dir, c.Method, c.ID.Raw()).OfCall(i))
		}
		if (c.Status == store.StatusError || c.Status == store.StatusToolError) && !c.Negotiation {
			errs++
		}
		if c.Method != "tools/call" {
			continue
		}
		called[c.Target]++
		if c.Status == store.StatusOK {
			succeeded[c.Target] = true
		}
		if c.Round <= 1 && contains(a.ForbidTools, c.Target) {
			out = append(out, finding.New(rules.AssertForbidTool, c.RequestSeq, "tool %s was called (--forbid-tool)", c.Target).OfCall(i))
		}
	}
	if a.MaxErrors != nil && errs > *a.MaxErrors {
		out = append(out, finding.New(rules.AssertMaxErrors, 0, "%d calls failed, over --max-errors %d", errs, *a.MaxErrors))
	}
	for _, name := range a.ExpectTools {
		switch {
		case called[name] == 0:
			out = append(out, finding.New(rules.AssertExpectTool, 0, "tool %s was never called (--expect-tool)", name))
		case !succeeded[name]:
			out = append(out, finding.New(rules.AssertExpectTool, 0, "tool %s was called %d times and never succeeded (--expect-tool)", name, called[name]))
		}
	}
	return out
}

// operationAssertions checks the tool time and round trips of each
// operation, at its first request.
func operationAssertions(snap *store.Snapshot, a *Assertions) []finding.Finding {
	var out []finding.Finding
	for _, op := range snap.Operations.All() {
		root := snap.Calls.At(op.Root)
		desc := describe(snap, op.Root)
		if a.MaxToolDuration > 0 && op.Method == "tools/call" && op.Status != store.StatusPending && ms(op.ToolMS) > a.MaxToolDuration {
			out = append(out, finding.New(rules.AssertMaxToolDuration, root.RequestSeq, "%s took %s of tool time (%s waiting for input excluded), over --max-tool-duration %s",
				desc, ms(op.ToolMS), ms(op.WaitMS), a.MaxToolDuration).OfCall(op.Root))
		}
		if a.MaxRoundTrips > 0 && len(op.Rounds) > a.MaxRoundTrips {
			out = append(out, finding.New(rules.AssertMaxRoundTrips, root.RequestSeq, "%s took %d round trips, over --max-round-trips %d",
				desc, len(op.Rounds), a.MaxRoundTrips).OfCall(op.Root))
		}
	}
	return out
}

// plainToolTimes checks the tool time of each tools/call that is no MRTR
// operation: its duration less that of the elicitations the server asked
// the client during it (legacy sessions), which is the human's wait.
func plainToolTimes(snap *store.Snapshot, a *Assertions) []finding.Finding {
	wait := map[int]float64{}
	for i := range snap.Calls.Len() {
		if c := snap.Calls.At(i); c.Parent >= 0 && c.Method == "elicitation/create" {
			wait[c.Parent] += c.DurationMS
		}
	}
	var out []finding.Finding
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		if c.Method != "tools/call" || c.Operation >= 0 || c.Status == store.StatusPending {
			continue
		}
		if tool := ms(c.DurationMS - wait[i]); tool > a.MaxToolDuration {
			out = append(out, finding.New(rules.AssertMaxToolDuration, c.RequestSeq, "%s took %s of tool time (%s waiting for input excluded), over --max-tool-duration %s",
				describe(snap, i), tool, ms(wait[i]), a.MaxToolDuration).OfCall(i))
		}
	}
	return out
}

// ms converts a duration in milliseconds, rounded to the microsecond.
func ms(v float64) time.Duration {
	return time.Duration(v * float64(time.Millisecond)).Round(time.Microsecond)
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
