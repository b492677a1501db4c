package events

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Event types other than mcp:<method>.
const (
	TypeElicitCreate   = "mcp:elicitation/create"
	TypeElicitResponse = "mcp:elicitation/response"
)

// Event is one analytics event. The first fields are MCPcat's (snake
// case); the rest are mcptrail's additions. Zero values are omitted from
// the JSON, except is_error.
type Event struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session_id"`
	EventType string    `json:"event_type"`
	Timestamp time.Time `json:"timestamp"`
	// DurationMS is the operation's duration (all rounds), or for an
	// elicitation response the time the user took; nil for a create.
	DurationMS *float64 `json:"duration_ms,omitempty"`
	// ResourceName is the tool or prompt name or the resource URI.
	ResourceName string `json:"resource_name,omitempty"`
	// Parameters and Response are the root request's params and the final
	// result: shapes by default, values with content on.
	Parameters      jsontext.Value    `json:"parameters,omitempty"`
	Response        jsontext.Value    `json:"response,omitempty"`
	IsError         bool              `json:"is_error"`
	Error           *Error            `json:"error,omitempty"`
	ClientName      string            `json:"client_name,omitempty"`
	ClientVersion   string            `json:"client_version,omitempty"`
	ServerName      string            `json:"server_name,omitempty"`
	ServerVersion   string            `json:"server_version,omitempty"`
	ProtocolVersion string            `json:"protocol_version,omitempty"`
	Tags            map[string]string `json:"tags,omitempty"`

	// Method is the JSON-RPC method; RequestID the root request's id.
	Method    string         `json:"method"`
	RequestID jsontext.Value `json:"request_id,omitempty"`
	// Status is the final call status (store.Status*); ResultType the
	// result's resultType when it is neither absent nor "complete".
	Status     string `json:"status,omitempty"`
	ResultType string `json:"result_type,omitempty"`
	Era        string `json:"era,omitempty"`
	// Rounds, WaitMS and ToolMS describe the operation: one round outside
	// MRTR; WaitMS + ToolMS = DurationMS.
	Rounds int      `json:"rounds,omitzero"`
	WaitMS *float64 `json:"wait_ms,omitempty"`
	ToolMS *float64 `json:"tool_ms,omitempty"`
	// TraceParent and TraceState are the root request's _meta trace
	// context; HTTPSessionID its Mcp-Session-Id header (HTTP only).
	TraceParent   string `json:"traceparent,omitempty"`
	TraceState    string `json:"tracestate,omitempty"`
	HTTPSessionID string `json:"http_session_id,omitempty"`
	// Task describes the task an operation became (ext-tasks); nil for
	// other operations. A task's event is emitted once, when it is first
	// seen in a terminal status.
	Task *Task `json:"task,omitempty"`
	// Elicitation is set on the two elicitation event types.
	Elicitation *Elicitation `json:"elicitation,omitempty"`
	// Seq is the seq of the frame that completed the event.
	Seq uint64 `json:"seq"`
}

// Task is a task operation's taskId, its terminal status (verbatim) and
// how many tasks/get and tasks/update requests it took.
type Task struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Polls   int    `json:"polls"`
	Updates int    `json:"updates"`
}

// Error describes a failed operation: a JSON-RPC error (Code and
// Message), a tool result with isError (Type "tool_error", no message: the
// result's text is content) or an HTTP error status.
type Error struct {
	Code    *int64 `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Type is the OpenTelemetry error.type: the JSON-RPC code as a
	// string, "tool_error", or the HTTP status.
	Type string `json:"type"`
}

// Elicitation is what an elicitation event says about the question and,
// on a response, its answer.
type Elicitation struct {
	Era           string  `json:"era"`
	Mode          string  `json:"mode"`
	Message       string  `json:"message,omitempty"`
	Fields        []Field `json:"fields,omitempty"`
	URL           string  `json:"url,omitempty"`
	Host          string  `json:"host,omitempty"`
	ElicitationID string  `json:"elicitation_id,omitempty"`
	// Key is the inputRequests key (MRTR); Round the MRTR round.
	Key   string `json:"key,omitempty"`
	Round int    `json:"round,omitzero"`
	// RequestID is the id of the request the question came with.
	RequestID jsontext.Value `json:"request_id,omitempty"`
	Root      *Root          `json:"root,omitempty"`
	// Status is "asked" or "required" on a create, "answered" or "error"
	// on a response.
	Status string `json:"status"`
	Action string `json:"action,omitempty"`
	// ElapsedMS is the time from the question to its answer.
	ElapsedMS *float64 `json:"elapsed_ms,omitempty"`
	// AnswerFields are the names of the answer's content members;
	// Content the content itself, only with content on (after redaction).
	AnswerFields []string       `json:"answer_fields,omitempty"`
	Content      jsontext.Value `json:"content,omitempty"`
	Observations []string       `json:"observations,omitempty"`
}

// Field is one property a form asked for, with its validation rules.
type Field struct {
	Name      string   `json:"name"`
	Type      string   `json:"type"`
	Required  bool     `json:"required,omitzero"`
	Format    string   `json:"format,omitempty"`
	MinLength *int64   `json:"min_length,omitempty"`
	MaxLength *int64   `json:"max_length,omitempty"`
	Minimum   *float64 `json:"minimum,omitempty"`
	Maximum   *float64 `json:"maximum,omitempty"`
	// Choices counts a select field's options; zero for other fields.
	Choices int `json:"choices,omitzero"`
	// Options lists a select field's options (the server's words, as
	// mcp.FieldType reads them); absent for other fields.
	Options []string `json:"options,omitempty"`
}

// Root is the client call a question belongs to.
type Root struct {
	Method    string         `json:"method,omitempty"`
	Target    string         `json:"target,omitempty"`
	RequestID jsontext.Value `json:"request_id,omitempty"`
	// Operation is the MRTR operation's index, absent outside MRTR.
	Operation *int `json:"operation,omitempty"`
}
