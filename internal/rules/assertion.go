package rules

import "github.com/mcptrail/mcptrail/internal/finding"

// The ids of the assertion rules: the limits and expectations given to
// mcptrail check on its command line (internal/check raises them). They
// are off by default: check turns on those whose flag is given.
const (
	AssertMaxDuration     = "check-max-duration"
	AssertMaxElicitWait   = "check-max-elicitation-wait"
	AssertMaxToolDuration = "check-max-tool-duration"
	AssertMaxRoundTrips   = "check-max-round-trips"
	AssertMaxErrors       = "check-max-errors"
	AssertExpectTool      = "check-expect-tool"
	AssertForbidTool      = "check-forbid-tool"
	AssertNoPending       = "check-expect-no-pending"
)

func assertionRules() []finding.Rule {
	const c = finding.Assertion
	const doc = "docs/check.md (Assertions)"
	return []finding.Rule{
		{ID: AssertMaxDuration, Category: c, Severity: finding.Error,
			Summary: "a call took longer than check --max-duration",
			Help: "Raised by mcptrail check --max-duration D for every call (either direction) whose answer came more than D " +
				"after its request, but a server's elicitation/create (a person answers it: --max-elicitation-wait judges those). " +
				"An MRTR round is a call of its own; the human's wait between rounds is not in any call. A server's " +
				"sampling/createMessage is judged: a model answers it.",
			Spec: doc, Off: true},
		{ID: AssertMaxElicitWait, Category: c, Severity: finding.Error,
			Summary: "a server's elicitation/create waited longer than check --max-elicitation-wait for its answer",
			Help: "Raised by mcptrail check --max-elicitation-wait D for every elicitation/create the server sent the client " +
				"(form or URL mode, 2025-era sessions) whose answer came more than D after it: the person took that long.",
			Spec: doc, Off: true},
		{ID: AssertMaxToolDuration, Category: c, Severity: finding.Error,
			Summary: "a tool took longer than check --max-tool-duration, human wait excluded",
			Help: "Raised by mcptrail check --max-tool-duration D for every tools/call operation whose tool time is over D: " +
				"from the first request to the final answer, less the gaps between each interim (input_required) result and its retry.",
			Spec: doc, Off: true},
		{ID: AssertMaxRoundTrips, Category: c, Severity: finding.Error,
			Summary: "an MRTR operation took more round trips than check --max-round-trips",
			Help: "Raised by mcptrail check --max-round-trips N for every operation that needed more than N requests " +
				"(the original and its retries) to complete.",
			Spec: doc, Off: true},
		{ID: AssertMaxErrors, Category: c, Severity: finding.Error,
			Summary: "a session had more failed calls than check --max-errors",
			Help: "Raised by mcptrail check --max-errors N, once per session, when more than N calls were answered with a " +
				"JSON-RPC error or a tool result with isError: true.",
			Spec: doc, Off: true},
		{ID: AssertExpectTool, Category: c, Severity: finding.Error,
			Summary: "a tool check --expect-tool names was not called, or never succeeded",
			Help: "Raised by mcptrail check --expect-tool NAME, once per session, when no tools/call of NAME got a " +
				"successful result (not an error, not isError: true).",
			Spec: doc, Off: true},
		{ID: AssertForbidTool, Category: c, Severity: finding.Error,
			Summary: "a tool check --forbid-tool names was called",
			Help:    "Raised by mcptrail check --forbid-tool NAME for every tools/call of NAME, whatever its answer.",
			Spec:    doc, Off: true},
		{ID: AssertNoPending, Category: c, Severity: finding.Error,
			Summary: "a call was never answered (check --expect-no-pending)",
			Help: "Raised by mcptrail check --expect-no-pending for every call with no answer when the capture ends, whether " +
				"or not the session ended cleanly (unanswered-request is raised only for a capture with an end record).",
			Spec: doc, Off: true},
	}
}
