package check

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// Options say how a Checker checks. The zero value checks every rule of
// rules.Default at its default severity, asserts nothing, fails on errors
// and knows no baseline.
type Options struct {
	// Tool is the version written into the report (Report.Tool).
	Tool string
	// FailOn is the least severity that fails the run; "" means error.
	FailOn finding.Severity
	// Rules are the rules to check, with their effective severity; nil
	// means rules.Default(). The Checker works on a clone, so the caller
	// may keep using it. The assertion rules whose limit Assert does not
	// set are disabled.
	Rules *finding.Registry
	// Assert holds the limits and expectations that become findings of
	// the assertion rules.
	Assert Assertions
	// Tools, when not nil, is the pinned tool catalog the session's tools
	// are compared with (the drift rules, rules.DriftIDs); nil disables
	// those rules.
	Tools *rules.ToolBaseline
	// Baseline, when not nil, suppresses the items whose fingerprint it
	// holds (ReadBaseline).
	Baseline *Baseline
	// Redactor, when not nil, redacts every record before the session is
	// judged (session.Options.Redactor), so that no finding quotes what
	// it hides (mcptrail mcp's check tool). Nil judges the records as
	// captured, as mcptrail check does.
	Redactor redact.Redactor
}

// Assertions are the limits and expectations given to check on its
// command line. The zero value asserts nothing.
type Assertions struct {
	// MaxDuration flags every answered call that took longer (any
	// direction), but a server's elicitation/create, which a person
	// answers; 0 means no limit.
	MaxDuration time.Duration
	// MaxElicitationWait flags every server's elicitation/create answered
	// after longer; 0 means no limit.
	MaxElicitationWait time.Duration
	// MaxToolDuration flags every tools/call operation whose tool time
	// (Operation.ToolMS: the human's wait between MRTR rounds excluded)
	// is longer; 0 means no limit.
	MaxToolDuration time.Duration
	// MaxRoundTrips flags every operation of more requests (the original
	// and its retries); 0 means no limit.
	MaxRoundTrips int
	// MaxErrors, when not nil, flags a session with more failed calls (a
	// JSON-RPC error or a tool result with isError: true).
	MaxErrors *int
	// ExpectTools are tools that each session must have called with a
	// successful result.
	ExpectTools []string
	// ForbidTools are tools no session may call.
	ForbidTools []string
	// ExpectNoPending flags every call left without an answer.
	ExpectNoPending bool
}

// ids returns the ids of the assertion rules a sets a limit for.
// EnableIn turns on, in reg, the assertion rules whose limit or
// expectation a sets (they are off by default). Options.Rules given to
// New must have had it called, before the rules the user skips are
// disabled, so that a skipped rule stays off.
func (a *Assertions) EnableIn(reg *finding.Registry) {
	for id, set := range a.ids() {
		if set {
			_ = reg.Enable(id) // every assertion rule is in rules.Default
		}
	}
}

func (a *Assertions) ids() map[string]bool {
	return map[string]bool{
		rules.AssertMaxDuration:     a.MaxDuration > 0,
		rules.AssertMaxElicitWait:   a.MaxElicitationWait > 0,
		rules.AssertMaxToolDuration: a.MaxToolDuration > 0,
		rules.AssertMaxRoundTrips:   a.MaxRoundTrips > 0,
		rules.AssertMaxErrors:       a.MaxErrors != nil,
		rules.AssertExpectTool:      len(a.ExpectTools) > 0,
		rules.AssertForbidTool:      len(a.ForbidTools) > 0,
		rules.AssertNoPending:       a.ExpectNoPending,
	}
}
