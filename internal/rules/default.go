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
// default severity and only the opt-in (Off) rules disabled.
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
	for _, group := range [][]finding.Rule{protocolRules(), mrtrRules(), captureRules(), httpRules(), elicitationRules(), toolRules(), oauthRules(), skillRules(), appRules(), deprecationRules(), dpopRules(), serverCardRules(), taskRules()} {
		out = append(out, group...)
	}
	out = append(out, assertionRules()...) // assertion.go
	out = append(out, driftRules()...)     // drift.go
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
				"(and an error with a null id that no unreadable frame excuses) answers nothing. An id-less error in the body " +
				"of an HTTP error status rejecting a POSTed notification or response is expected (Streamable HTTP).",
			Spec: spec + "§6 rule 5; §7 (Null or absent ids on errors)"},
		{ID: finding.DuplicateResponse, Category: c, Severity: finding.Error,
			Summary: "a request is answered more than once",
			Help: "A request gets exactly one response, a result or an error. A second answer with the same id is a protocol " +
				"error; the call keeps its first answer.",
			Spec: spec + "§6 rule 5; §7 (Message kinds)"},
		{ID: finding.LateResult, Category: c, Severity: finding.Warning,
			Summary: "a result arrives after the request was cancelled",
			Help: "After notifications/cancelled for a request the server must not send more for it. A response already on " +
				"the wire when the cancellation arrived is a race, so this is a warning. Not raised for subscriptions/listen, " +
				"whose final success response after the client's cancel the subscriptions page asks for.",
			Spec: spec + "§6 rule 44; §5.1 (Cancellation)"},
		{ID: finding.CancelUnknown, Category: c, Severity: finding.Info,
			Summary: "notifications/cancelled names a request not in flight",
			Help: "notifications/cancelled must carry a requestId naming a request its sender issued that is still in flight. " +
				"Receivers ignore unknown ids, so this is information, often a cancellation that crossed the answer.",
			Spec: spec + "§6 rule 42; §7 (Cancellation)"},
		{ID: finding.UnansweredRequest, Category: c, Severity: finding.Warning,
			Summary: "a request was never answered before the session ended",
			Help: "Raised only for a capture that ended cleanly (an end record), for a request with no answer that was " +
				"not cancelled: in a live or torn capture the call may still be running. Not raised for subscriptions/listen, " +
				"a stream that has no answer while it lives (on HTTP the client ends it by closing the stream).",
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
			Summary: "the server crashed: it exited with a non-zero status or a signal nobody sent to stop it",
			Help: "The stdio server process ended with a non-zero exit status, or was killed by a signal that neither its client " +
				"(through mcptrail) nor mcptrail sent to stop it, or ignored a stop signal until mcptrail killed it after --kill-after. " +
				"A server that exits on the signal its client sends at shutdown exits normally (the server-exit note's stopped_by).",
			Spec: spec + "§5.1 (Shutdown and restart)"},
		{ID: finding.ServerIgnoredEOF, Category: c, Severity: finding.Info,
			Summary: "the server did not exit when its stdin closed, and had to be signalled",
			Help: "The client closed the server's stdin and the server was still running a second or more later, until the client's " +
				"SIGTERM (passed on by mcptrail) or mcptrail's own stop ended it. The server SHOULD exit on EOF; a timer or open " +
				"handle that keeps it alive makes every client wait for its shutdown timeout.",
			Spec: spec + "§5.1 (Shutdown and restart: the server SHOULD exit on EOF)"},
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
		{ID: finding.ElicitSensitiveField, Category: c, Severity: finding.Warning,
			Summary: "a form-mode field whose name or description asks for a password, key, token, card number or SSN",
			Help: "A server must not use form mode for sensitive data (passwords, API keys, access tokens, payment credentials); " +
				"it must use URL mode, so the secret never passes through the client. Field names and descriptions are matched " +
				"heuristically (password, secret, api key, token, card number, cvv, ssn, ...), so this is a lint.",
			Spec: spec + "§6 rule 30; §3.7"},
		{ID: finding.ElicitModeUndeclared, Category: c, Severity: finding.Warning,
			Summary: "the server asked in an elicitation mode the client did not declare",
			Help: "A server must not send an elicitation mode the client did not declare: in 2026-07-28 in the clientCapabilities " +
				"of the request the question answers, in legacy sessions in initialize. \"elicitation\": {} means form only.",
			Spec: spec + "§6 rule 20; §3.1"},
		{ID: finding.ElicitContentOnDecline, Category: c, Severity: finding.Warning,
			Summary: "an elicitation answer carries content with decline or cancel",
			Help: "content is present only on a form-mode accept. A decline or cancel that carries content sends the user's " +
				"input although the user said no; the server must treat the answer as declined.",
			Spec: spec + "§6 rule 29; §3.5"},
		{ID: finding.ElicitContentInvalid, Category: c, Severity: finding.Warning,
			Summary: "accepted content does not validate against the question's requestedSchema",
			Help: "Accepted form content should validate against the requestedSchema it answers; clients and servers each " +
				"should validate. The finding names the field and the constraint it breaks, never the value.",
			Spec: spec + "§6 rule 29; §3.5"},
		{ID: finding.ElicitURLInsecure, Category: c, Severity: finding.Warning,
			Summary: "a url-mode elicitation's URL is not https, names an IP or punycode host, or carries credentials",
			Help: "A url-mode URL should be https, must not carry credentials (userinfo) and is shown to the user for consent: " +
				"an IP-literal or punycode / non-ASCII host hides who asks.",
			Spec: spec + "§6 rule 31; §3.7"},
		{ID: finding.ElicitUnanswered, Category: c, Severity: finding.Info,
			Summary: "an elicitation was still unanswered when the session ended",
			Help: "Raised only for a capture that ended cleanly, for a question no answer (no retry carrying its key, no " +
				"legacy response) reached. Clients need not answer, so this is information.",
			Spec: spec + "§2.4 rule 6; §3.5"},
		{ID: finding.ElicitSchemaUnsupported, Category: c, Severity: finding.Warning,
			Summary: "a requestedSchema is outside the restricted subset (a flat object of primitive fields)",
			Help: "Form mode's requestedSchema is a flat object whose properties are string, number, integer, boolean or " +
				"enum schemas. Nested objects, unions such as anyOf [string, null] (Pydantic's optional field) and integer " +
				"enums are outside it, and clients such as the TypeScript SDK reject them with -32603.",
			Spec: spec + "§6 rule 27; §3.3"},
		{ID: finding.ApprovalMissing, Category: c, Severity: finding.Warning, Off: true,
			Summary: "a destructive tool call completed without an accepted elicitation (opt-in)",
			Help: "A tool annotated destructiveHint: true completed without an elicitation the user accepted in its " +
				"operation. readOnlyHint: true overrides destructiveHint, a member given twice counts as its last, and a tool " +
				"without annotations does not count (MCP assumes it destructive, but most servers annotate nothing). " +
				"Annotations are hints and approval may happen elsewhere, so this rule is off until enabled.",
			Spec: spec + "§3.7 (servers MUST handle decline; human in the loop)"},
	}
}

func toolRules() []finding.Rule {
	const c = finding.Protocol
	return []finding.Rule{
		{ID: finding.ToolSchemaInvalid, Category: c, Severity: finding.Warning,
			Summary: "a tool's inputSchema is not a valid JSON Schema object",
			Help: "Tool.inputSchema is a JSON Schema with type object at the root. One that does not compile (a bad keyword " +
				"value, an unresolvable $ref) or is not an object schema cannot validate the tool's arguments.",
			Spec: spec + "§6 rule 48"},
		{ID: finding.ToolNameInvalid, Category: c, Severity: finding.Warning,
			Summary: "a tool name is outside 1-128 characters of A-Z a-z 0-9 _ - .",
			Help: "Tool names should be 1 to 128 characters, using only ASCII letters, digits, underscore, hyphen and dot " +
				"(the tools page since 2025-11-25). Spaces and other characters break clients that route or display by name.",
			Spec: "MCP 2025-11-25 server/tools (Tool names)"},
		{ID: finding.ToolDefinitionChanged, Category: c, Severity: finding.Warning,
			Summary: "a tool's definition changed during the session without notifications/tools/list_changed",
			Help: "A server whose tool list changes should announce it with notifications/tools/list_changed. A definition " +
				"that changed between two listings with no notification in between may surprise a client that cached it.",
			Spec: spec + "§6 rule 36; §1.14"},
	}
}
