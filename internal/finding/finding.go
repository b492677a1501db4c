// Package finding defines what a finding is and the Registry of the rules
// that raise findings: every problem mcptrail reports has a stable
// kebab-case rule id, a category, a severity and the capture seq (and,
// when known, the call and the capture file line) it anchors to. The rule
// definitions themselves live in internal/rules; this package is a leaf
// that the store and every view may import. It holds no state: a Registry
// is a value its owner builds and configures before sharing it, after
// which it is safe for concurrent reads.
package finding

import (
	"fmt"
)

// Severity is how bad a finding is.
type Severity string

// The severities, most severe first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// ParseSeverity returns the severity named s, or an error naming it.
func ParseSeverity(s string) (Severity, error) {
	switch v := Severity(s); v {
	case Error, Warning, Info:
		return v, nil
	}
	return "", fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// Category groups rules by what they look at.
type Category string

// The categories.
const (
	Protocol    Category = "protocol"    // JSON-RPC and MCP base rules
	MRTR        Category = "mrtr"        // multi round-trip requests
	Legacy      Category = "legacy"      // pre-2026 sessions
	HTTP        Category = "http"        // the Streamable HTTP transport
	Elicitation Category = "elicitation" // elicitation requests and answers
	Capture     Category = "capture"     // the recording and the proxied process
	Performance Category = "performance" // latency and load
	Assertion   Category = "assertion"   // the limits and expectations given to check
	OAuth       Category = "oauth"       // the authorization flow in front of a remote server
	Drift       Category = "drift"       // a server's tools against a pinned baseline (check --tools-baseline)
)

// Categories returns every category, in a fixed order.
func Categories() []Category {
	return []Category{Protocol, MRTR, Legacy, HTTP, Elicitation, Capture, Performance, Assertion, OAuth, Drift}
}

// Rule describes one kind of finding.
type Rule struct {
	ID       string   `json:"id"`
	Category Category `json:"category"`
	// Severity is the rule's default severity.
	Severity Severity `json:"severity"`
	// Summary is one line; Help a paragraph saying what the rule looks
	// at and why it matters.
	Summary string `json:"summary"`
	Help    string `json:"help"`
	// Spec names what the rule enforces: a section and rule number of
	// the protocol brief, or another document.
	Spec string `json:"spec"`
	// Off makes the rule opt-in: a new Registry starts with it disabled,
	// and Enable turns it on. False (the zero value) means on by default.
	Off bool `json:"off,omitempty"`
}

// Finding is one occurrence of a rule in a session.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Seq is the capture seq of the record the finding anchors to; zero
	// when it concerns the session as a whole.
	Seq uint64 `json:"seq"`
	// Call is the index of the call the finding concerns, or -1 when it
	// concerns none.
	Call int `json:"call"`
	// Line is the capture file line of the record at Seq (1-based); zero
	// when unknown (a live or in-memory record, a session-wide finding).
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// New returns an ungraded finding of rule id anchored at seq, concerning
// no call. A Registry's Grade gives it its severity.
func New(id string, seq uint64, format string, args ...any) Finding {
	return Finding{Rule: id, Seq: seq, Call: -1, Message: fmt.Sprintf(format, args...)}
}

// OfCall returns f concerning the call at index i.
func (f Finding) OfCall(i int) Finding {
	f.Call = i
	return f
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
	ServerIgnoredEOF   = "server-ignored-stdin-eof"
	ServerStartFailed  = "server-start-failed"
	RelayError         = "relay-error"
	// HTTPRequestNoBody is raised where the store pairs an HTTP status
	// with its call (rule 60).
	HTTPRequestNoBody = "http-request-without-response"
)

// Rule ids raised for Streamable HTTP captures (spec section 6, rules
// 54-61).
const (
	HTTPBatch              = "http-batch"
	HTTPVersionHeader      = "http-protocol-version-header"
	HTTPMethodHeader       = "http-method-header"
	HTTPNameHeader         = "http-name-header"
	HTTPContentType        = "http-response-content-type"
	HTTPNotificationStatus = "http-notification-status"
	HTTPParamHeader        = "http-param-header"
	ToolHeaderAnnotation   = "tool-header-annotation"
	// HTTPErrorStatus: an answer with a failing HTTP status (401, 403,
	// 404, 5xx, the 502 of an unreachable target).
	HTTPErrorStatus = "http-error-status"
)

// Rule ids raised for elicitation requests and answers (spec section 3
// and section 6, rules 29 and 30).
const (
	ElicitActionUnknown     = "elicitation-action-unknown"
	ElicitSensitiveField    = "elicitation-sensitive-form-field"
	ElicitModeUndeclared    = "elicitation-mode-undeclared"
	ElicitContentOnDecline  = "elicitation-content-on-decline"
	ElicitContentInvalid    = "elicitation-content-invalid"
	ElicitURLInsecure       = "elicitation-url-insecure"
	ElicitUnanswered        = "elicitation-unanswered"
	ElicitSchemaUnsupported = "elicitation-schema-unsupported"
	// ApprovalMissing is opt-in (Rule.Off): a destructive tool call
	// completed without an accepted elicitation.
	ApprovalMissing = "approval-missing"
)

// Rule ids raised for the server's tool definitions (the catalog).
const (
	ToolSchemaInvalid     = "tool-schema-invalid"
	ToolNameInvalid       = "tool-name-invalid"
	ToolDefinitionChanged = "tool-definition-changed"
)
