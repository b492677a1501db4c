// Package finding defines the findings registry: every problem mcptrail
// reports has a stable kebab-case rule id, a severity and the capture seq it
// anchors to. The store raises correlation findings; the check rules of a
// later issue plug into the same registry. It has no dependencies and no
// state; Rules returns a fresh copy.
package finding

import (
	"fmt"
	"sort"
)

// Severity is how bad a finding is.
type Severity string

// The severities, most severe first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rule describes one kind of finding.
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
}

// Finding is one occurrence of a rule in a session.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Seq is the capture seq of the record the finding anchors to; zero
	// when it concerns the session as a whole.
	Seq     uint64 `json:"seq"`
	Message string `json:"message"`
}

// Rule ids raised by the store.
const (
	InvalidFrame       = "invalid-frame"
	NonConformingFrame = "non-conforming-frame"
	NullID             = "null-id"
	BatchFrame         = "batch-frame"
	IDReused           = "id-reused-in-flight"
	ResponseWithoutReq = "response-without-request"
	DuplicateResponse  = "duplicate-response"
	LateResult         = "late-result"
	CancelUnknown      = "cancel-unknown-request"
	MRTRStateChanged   = "mrtr-state-changed"
	MRTRStateMissing   = "mrtr-state-missing"
	MRTRStateInvented  = "mrtr-state-invented"
	MRTRRetrySameID    = "mrtr-retry-same-id"
	MRTRRetryMismatch  = "mrtr-retry-mismatch"
	MRTRNotRetryable   = "mrtr-not-retryable"
	UnpairedRetry      = "unpaired-retry"
	CaptureGap         = "capture-gap"
	CaptureTorn        = "capture-torn"
	CaptureCorrupt     = "capture-corrupt"
	UnansweredRequest  = "unanswered-request"
	ServerExitAbnormal = "server-exit-abnormal"
	ServerStartFailed  = "server-start-failed"
	RelayError         = "relay-error"
)

// Rule ids raised for Streamable HTTP captures (spec section 6, rules
// 54-61).
const (
	HTTPBatch              = "http-batch"
	HTTPVersionHeader      = "http-protocol-version-header"
	HTTPMethodHeader       = "http-method-header"
	HTTPNameHeader         = "http-name-header"
	HTTPRequestNoBody      = "http-request-without-response"
	HTTPContentType        = "http-response-content-type"
	HTTPNotificationStatus = "http-notification-status"
	HTTPParamHeader        = "http-param-header"
)

// ToolHeaderAnnotation is raised for an x-mcp-header annotation that breaks
// the constraints of spec 5.2, and for an HTTP call of such a tool (rule
// 49). It is not tied to a transport: the annotation is in the tool's
// schema.
const ToolHeaderAnnotation = "tool-header-annotation"

var registry = map[string]Rule{}

func init() {
	for _, r := range []Rule{
		{InvalidFrame, Error, "a frame is not a JSON-RPC 2.0 message (bad JSON, bad UTF-8, wrong shape)"},
		{NonConformingFrame, Warning, "a classified JSON-RPC message breaks a base rule (jsonrpc member, error shape, duplicate members)"},
		{NullID, Error, "a request carries a null id"},
		{BatchFrame, Error, "a JSON-RPC batch outside 2025-03-26"},
		{IDReused, Error, "a request id is reused while an earlier request with that id is in flight"},
		{ResponseWithoutReq, Error, "a response or error answers no request seen in the capture"},
		{DuplicateResponse, Error, "a request is answered more than once"},
		{LateResult, Warning, "a result arrives after the request was cancelled"},
		{CancelUnknown, Info, "notifications/cancelled names a request not in flight"},
		{MRTRStateChanged, Error, "an MRTR retry echoes a requestState different from the interim result's"},
		{MRTRStateMissing, Error, "an MRTR retry drops the requestState the interim result carried"},
		{MRTRStateInvented, Error, "an MRTR retry carries a requestState the interim result did not have"},
		{MRTRRetrySameID, Error, "an MRTR retry reuses the original request's id"},
		{MRTRRetryMismatch, Warning, "an MRTR retry's method, target or arguments differ from the original's"},
		{MRTRNotRetryable, Error, "input_required answers a method other than tools/call, prompts/get or resources/read"},
		{UnpairedRetry, Warning, "a request carries inputResponses or requestState that match no interim result"},
		{CaptureGap, Error, "the capture lost records (see the note for counts)"},
		{CaptureTorn, Warning, "the capture's last line is torn (the writer was killed)"},
		{CaptureCorrupt, Error, "lines in the middle of the capture could not be decoded"},
		{UnansweredRequest, Warning, "a request was never answered before the session ended"},
		{ServerExitAbnormal, Warning, "the server exited with a non-zero status or a signal"},
		{ServerStartFailed, Error, "the server command could not be started"},
		{RelayError, Warning, "an I/O error on one side of the relay (a peer vanished or stopped reading)"},
		{HTTPBatch, Error, "a Streamable HTTP POST body is a JSON-RPC batch (rule 54)"},
		{HTTPVersionHeader, Error, "MCP-Protocol-Version is missing or differs from the body's _meta version (rule 56)"},
		{HTTPMethodHeader, Error, "a modern request's Mcp-Method header is missing or differs from its method (rule 56)"},
		{HTTPNameHeader, Error, "a modern tools/call, prompts/get or resources/read lacks Mcp-Name or it differs from the body (rule 56)"},
		{HTTPRequestNoBody, Error, "a request was answered with a success status but no JSON-RPC response (rule 60)"},
		{HTTPContentType, Error, "a request's response is neither application/json nor text/event-stream (rule 60)"},
		{HTTPNotificationStatus, Warning, "an accepted notification POST got a status other than 202 or a body (rule 59)"},
		{HTTPParamHeader, Error, "a modern tools/call's Mcp-Param-{Name} header is missing, present for a null or absent argument, differs from the x-mcp-header annotated argument, or is not base64-sentinel encoded where it must be (rule 57)"},
		{ToolHeaderAnnotation, Error, "a tool's x-mcp-header annotation breaks the constraints of spec 5.2, or a client calls such a tool over HTTP (rule 49)"},
	} {
		registry[r.ID] = r
	}
}

// Rules returns every registered rule, sorted by id.
func Rules() []Rule {
	out := make([]Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) {
	r, ok := registry[id]
	return r, ok
}

// New returns a finding of rule id anchored at seq. It panics on an
// unregistered id, which is a programming error caught by tests.
func New(id string, seq uint64, format string, args ...any) Finding {
	r, ok := registry[id]
	if !ok {
		panic("finding: unregistered rule " + id)
	}
	return Finding{Rule: id, Severity: r.Severity, Seq: seq, Message: fmt.Sprintf(format, args...)}
}
