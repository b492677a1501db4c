package rules

import (
	"fmt"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// spec names the protocol revision whose brief
// (the protocol brief of DESIGN.md) the section and rule numbers of a
// rule's Spec refer to; section 6 numbers the rules decidable from the wire.
const spec = "MCP 2026-07-28 "

// Default returns a new registry of every rule mcptrail raises, with its
// default severity and nothing disabled.
func Default() *finding.Registry {
	r, err := finding.NewRegistry(definitions()...)
	if err != nil {
		// The definitions are constants of this package; a test builds them.
		panic(fmt.Sprintf("rules: %v", err))
	}
	return r
}

// definitions returns every rule's metadata.
func definitions() []finding.Rule {
	var out []finding.Rule
	for _, group := range [][]finding.Rule{protocolRules(), mrtrRules(), captureRules(), httpRules(), elicitationRules()} {
		out = append(out, group...)
	}
	out = append(out, assertionRules()...) // assertion.go
	return out
}

func protocolRules() []finding.Rule {
	const c = finding.Protocol
	return []finding.Rule{
		{ID: finding.InvalidFrame, Category: c, Severity: finding.Error,
			Summary: "a frame is not a JSON-RPC message (bad JSON, bad UTF-8, wrong shape)",
			Help: "Every line of stdio (every HTTP body) must be one UTF-8 JSON-RPC 2.0 message. A frame that does not decode, " +
				"is not UTF-8, or has neither a method nor an id with a result or error cannot be correlated; the peer must drop or reject it.",
			Spec: spec + "§6 rules 1 and 53; §5.1 (stdio framing)"},
		{ID: finding.NonConformingFrame, Category: c, Severity: finding.Warning,
			Summary: "a classified JSON-RPC message breaks a base rule (jsonrpc member, error shape, duplicate members)",
			Help: "The message could be classified and is correlated, but it breaks a JSON-RPC 2.0 base rule: jsonrpc is not \"2.0\", " +
				"an error lacks an integer code or a message, a notification carries an id, or a member repeats.",
			Spec: spec + "§6 rules 1, 4 and 5; §7"},
		{ID: finding.NullID, Category: c, Severity: finding.Error,
			Summary: "a request carries a null id",
			Help: "A request id must be a string or an integer, never null; a null id reads as a JSON-RPC error reply's " +
				"\"id could not be read\", so nobody can answer the request.",
			Spec: spec + "§6 rule 2; §7 (IDs)"},
		{ID: finding.BatchFrame, Category: c, Severity: finding.Error,
			Summary: "a JSON-RPC batch outside 2025-03-26",
			Help: "Batches (a JSON array of messages) existed only in 2025-03-26; 2025-06-18 removed them, and every later " +
				"revision takes single messages only. The elements are still correlated one by one.",
			Spec: spec + "§7 (Batches); §5.1"},
		{ID: finding.IDReused, Category: c, Severity: finding.Error,
			Summary: "a request id is reused while an earlier request with that id is in flight",
			Help: "A sender must not reuse the id of one of its own requests that still awaits a response: the answer " +
				"cannot tell them apart. On stdio the scope is the process; two stateless HTTP clients in different exchanges are not flagged.",
			Spec: spec + "§6 rule 3; §7 (IDs)"},
		{ID: finding.ResponseWithoutReq, Category: c, Severity: finding.Error,
			Summary: "a response or error answers no request seen in the capture",
			Help: "A response must carry the id of a request it answers. One whose id matches no request in flight " +
				"(and an error with a null id that no unreadable frame excuses) answers nothing.",
			Spec: spec + "§6 rule 5; §7 (Null or absent ids on errors)"},
		{ID: finding.DuplicateResponse, Category: c, Severity: finding.Error,
			Summary: "a request is answered more than once",
			Help: "A request gets exactly one response, a result or an error. A second answer with the same id is a protocol " +
				"error; the call keeps its first answer.",
			Spec: spec + "§6 rule 5; §7 (Message kinds)"},
		{ID: finding.LateResult, Category: c, Severity: finding.Warning,
			Summary: "a result arrives after the request was cancelled",
			Help: "After notifications/cancelled for a request the server must not send more for it. A response already on " +
				"the wire when the cancellation arrived is a race, so this is a warning.",
			Spec: spec + "§6 rule 44; §5.1 (Cancellation)"},
		{ID: finding.CancelUnknown, Category: c, Severity: finding.Info,
			Summary: "notifications/cancelled names a request not in flight",
			Help: "notifications/cancelled must carry a requestId naming a request its sender issued that is still in flight. " +
				"Receivers ignore unknown ids, so this is information, often a cancellation that crossed the answer.",
			Spec: spec + "§6 rule 42; §7 (Cancellation)"},
		{ID: finding.UnansweredRequest, Category: c, Severity: finding.Warning,
			Summary: "a request was never answered before the session ended",
			Help: "Raised only for a capture that ended cleanly (an end record), for a request with no answer that was " +
				"not cancelled: in a live or torn capture the call may still be running.",
			Spec: spec + "§6 rule 5; §7 (Message kinds: every request gets a response)"},
	}
}

func mrtrRules() []finding.Rule {
	const c = finding.MRTR
	return []finding.Rule{
		{ID: finding.MRTRStateChanged, Category: c, Severity: finding.Error,
			Summary: "an MRTR retry echoes a requestState different from the interim result's",
			Help:    "A retry must echo the interim result's requestState byte for byte: the server verifies it and must reject one that fails.",
			Spec:    spec + "§6 rule 22; §2.5; §2.7 step 3"},
		{ID: finding.MRTRStateMissing, Category: c, Severity: finding.Error,
			Summary: "an MRTR retry drops the requestState the interim result carried",
			Help:    "When the interim (input_required) result carried requestState, the retry must carry the identical string.",
			Spec:    spec + "§6 rule 22; §2.5"},
		{ID: finding.MRTRStateInvented, Category: c, Severity: finding.Error,
			Summary: "an MRTR retry carries a requestState the interim result did not have",
			Help:    "When the interim result carried no requestState, the retry must not carry one.",
			Spec:    spec + "§6 rule 22; §2.5"},
		{ID: finding.MRTRRetrySameID, Category: c, Severity: finding.Error,
			Summary: "an MRTR retry reuses the original request's id",
			Help:    "A retry is a new request: its JSON-RPC id must differ from the id of the request it retries.",
			Spec:    spec + "§6 rule 21; §2.7 step 3"},
		{ID: finding.MRTRRetryMismatch, Category: c, Severity: finding.Warning,
			Summary: "an MRTR retry's method, target or arguments differ from the original's",
			Help: "A retry echoing a requestState must repeat the original's method, name or uri and arguments " +
				"(\"original params + inputResponses\"); requestState must not travel on a request other than the retry of its own original.",
			Spec: spec + "§6 rule 23; §2.7 step 3"},
		{ID: finding.MRTRNotRetryable, Category: c, Severity: finding.Error,
			Summary: "input_required answers a method other than tools/call, prompts/get or resources/read",
			Help:    "resultType input_required is allowed only in answers to a client's tools/call, prompts/get or resources/read.",
			Spec:    spec + "§6 rule 17; §2.2"},
		{ID: finding.UnpairedRetry, Category: c, Severity: finding.Warning,
			Summary: "a request carries inputResponses or requestState that match no interim result",
			Help: "A request carrying inputResponses or requestState should retry an interim result. One that matches none may retry " +
				"an original from before the capture began, so this is a warning, not a violation.",
			Spec: spec + "§2.7 step 6; §6 rule 23"},
	}
}

func captureRules() []finding.Rule {
	const c = finding.Capture
	const doc = "docs/capture-format.md ("
	return []finding.Rule{
		{ID: finding.CaptureGap, Category: c, Severity: finding.Error,
			Summary: "the capture lost records (see the note for counts)",
			Help: "The proxy could not write some records (the disk was full or too slow and the queue overflowed); the traffic " +
				"was relayed untouched, but correlation after the gap may be incomplete.",
			Spec: doc + "Backpressure and loss)"},
		{ID: finding.CaptureTorn, Category: c, Severity: finding.Warning,
			Summary: "the capture's last line is torn (the writer was killed)",
			Help:    "The capture's last line has no newline: the writer was killed mid-record. The reader skips it; everything before it is intact.",
			Spec:    doc + "Torn tails and damaged lines)"},
		{ID: finding.CaptureCorrupt, Category: c, Severity: finding.Error,
			Summary: "lines in the middle of the capture could not be decoded",
			Help:    "Lines other than the last could not be decoded as capture records: the file was edited or damaged. They are skipped.",
			Spec:    doc + "Torn tails and damaged lines)"},
		{ID: finding.ServerExitAbnormal, Category: c, Severity: finding.Warning,
			Summary: "the server exited with a non-zero status or a signal",
			Help: "The stdio server process ended with a non-zero exit status or was killed by a signal. A server should exit " +
				"cleanly when its stdin closes.",
			Spec: spec + "§5.1 (Shutdown and restart)"},
		{ID: finding.ServerStartFailed, Category: c, Severity: finding.Error,
			Summary: "the server command could not be started",
			Help:    "The proxy could not launch the stdio server command (not found, not executable, ...): no traffic was relayed.",
			Spec:    spec + "§5.1 (the client launches the server as a subprocess)"},
		{ID: finding.RelayError, Category: c, Severity: finding.Warning,
			Summary: "an I/O error on one side of the relay (a peer vanished or stopped reading)",
			Help:    "Reading from or writing to one peer failed: a peer closed its end or stopped reading. Frames after it may be missing.",
			Spec:    spec + "§5.1 (stdio transport)"},
	}
}

func elicitationRules() []finding.Rule {
	const c = finding.Elicitation
	return []finding.Rule{
		{ID: finding.ElicitActionUnknown, Category: c, Severity: finding.Error,
			Summary: "an elicitation answer's action is not accept, decline or cancel",
			Help: "An ElicitResult's action must be accept (submitted or confirmed), decline (an explicit no) or cancel " +
				"(dismissed). Any other action, such as postpone, is invalid: the server cannot know what the user did.",
			Spec: spec + "§6 rule 29; §3.5"},
		{ID: finding.ElicitSensitiveForm, Category: c, Severity: finding.Warning,
			Summary: "a form-mode elicitation asks for what looks like a password, key, token or card number",
			Help: "A server must not use form mode for sensitive data (passwords, API keys, access tokens, payment credentials); " +
				"it must use URL mode, so the secret never passes through the client. Field names are matched heuristically " +
				"(password, secret, api_key, token, card number, cvv, ...), so this is a lint.",
			Spec: spec + "§6 rule 30; §3.7"},
	}
}
