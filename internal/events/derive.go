package events

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

func tags(m *Meta) map[string]string {
	t := map[string]string{}
	if m.Label != "" {
		t["label"] = m.Label
	}
	if m.Transport != "" {
		t["transport"] = m.Transport
	}
	if len(t) == 0 {
		return nil
	}
	return t
}

// operation fills a completed operation's event: c is the answered call
// (the last round), root the operation's first request (c outside MRTR)
// and op the MRTR operation, finished (nil outside MRTR).
func operation(e *Event, c, root *store.Call, op *store.Operation) {
	e.EventType = "mcp:" + root.Method
	e.Method = root.Method
	e.Timestamp = root.Start
	e.ResourceName = root.Target
	e.RequestID = idValue(root.ID)
	e.Status = c.Status
	if c.ResultType != "" && c.ResultType != mcp.ResultComplete {
		e.ResultType = c.ResultType
	}
	e.ProtocolVersion = root.ProtocolVersion
	e.Era = root.Era
	dur, wait, rounds := c.DurationMS, 0.0, 1
	if op != nil {
		dur, wait, rounds = op.DurationMS, op.WaitMS, len(op.Rounds)
	}
	tool := dur - wait
	e.DurationMS, e.WaitMS, e.ToolMS, e.Rounds = &dur, &wait, &tool, rounds
	if c.Late {
		e.tag("late", "true")
	}
	e.Error = callError(c)
	if op != nil && op.Task.ID != "" {
		taskOperation(e, op)
	}
	e.IsError = e.Error != nil
}

// taskOperation fills what a task's event takes from the task rather
// than from its last round: status, error and the task itself.
func taskOperation(e *Event, op *store.Operation) {
	e.Status, e.Error = op.Status, nil
	e.Task = &Task{ID: op.Task.ID, Status: op.Task.Status, Polls: op.Task.Polls, Updates: op.Task.Updates}
	switch op.Status {
	case store.StatusToolError:
		e.Error = &Error{Type: "tool_error"}
	case store.StatusError:
		e.Error = &Error{Type: "task_failed"}
	}
}

func (e *Event) tag(k, v string) {
	if e.Tags == nil {
		e.Tags = map[string]string{}
	}
	e.Tags[k] = v
}

// callError describes a failed call, or returns nil.
func callError(c *store.Call) *Error {
	switch c.Status {
	case store.StatusToolError:
		return &Error{Type: "tool_error"}
	case store.StatusError, store.StatusHTTPError:
		if c.Error == nil {
			return &Error{Type: "_OTHER"}
		}
		code := c.Error.Code
		return &Error{Code: &code, Message: c.Error.Message, Type: strconv.FormatInt(code, 10)}
	}
	return nil
}

// rowExtra is what an elicitation event carries beyond its ledger row:
// the call that carried the question and its root (each nil when
// unknown), the form's fields with their rules, and on a response the
// names of the answer's content members and, with content on, the content.
type rowExtra struct {
	call, root   *store.Call
	fields       []Field
	answerFields []string
	answer       jsontext.Value
}

// elicitation fills a create (asked) or response event from a ledger row.
func elicitation(e *Event, asked bool, row *store.LedgerRow, x *rowExtra) {
	el := &Elicitation{
		Era: row.Era, Mode: row.Mode, Message: row.Message, URL: row.URL, Host: row.Host,
		ElicitationID: row.ElicitationID, Key: row.Key, Round: row.Round,
		RequestID: idValue(row.RequestID), Observations: row.Observations, Fields: x.fields,
	}
	if row.Root.Call >= 0 {
		el.Root = &Root{Method: row.Root.Method, Target: row.Root.Target, RequestID: idValue(row.Root.ID)}
		if row.Operation >= 0 {
			op := row.Operation
			el.Root.Operation = &op
		}
	}
	e.Elicitation = el
	e.Method = mcp.MethodElicit
	e.ResourceName = row.Root.Target
	if x.root != nil {
		e.ProtocolVersion, e.Era = x.root.ProtocolVersion, x.root.Era
	} else if x.call != nil {
		e.ProtocolVersion, e.Era = x.call.ProtocolVersion, x.call.Era
	}
	if asked {
		e.EventType, e.Timestamp = TypeElicitCreate, row.AskedAt
		el.Status = "asked"
		if row.Status == store.LedgerRequired {
			el.Status = store.LedgerRequired
		}
		return
	}
	e.EventType, e.Timestamp = TypeElicitResponse, row.AnsweredAt
	el.Status, el.Action = row.Status, row.Action
	elapsed := row.ElapsedMS
	el.ElapsedMS, e.DurationMS = &elapsed, &elapsed
	el.AnswerFields, el.Content = x.answerFields, x.answer
	if row.Status == store.LedgerError {
		e.IsError = true
		e.Error = &Error{Type: "elicitation_error"}
	}
}

// questionParams returns the elicitation/create params of a row that
// frame f asked, by the row's reference: its inputRequests key (MRTR), its
// entry of a -32042 error's data.elicitations, or the legacy request's
// own params.
func questionParams(row *store.LedgerRow, f *wire.Frame) []byte {
	switch {
	case row.Era == store.LedgerMRTR:
		return mcp.InputRequestParams(f.Result, row.Key)
	case row.Status == store.LedgerRequired:
		return mcp.RequiredElicitation(f.ErrorData, row.Entry)
	}
	return f.Params
}

// answerOf returns the ElicitResult that answered row in frame f: an
// inputResponses entry of a retry, or a legacy response's result.
func answerOf(row *store.LedgerRow, f *wire.Frame) []byte {
	if row.Era == store.LedgerMRTR {
		return mcp.InputResponse(f.Params, row.Key)
	}
	return f.Result
}

// idValue returns a JSON-RPC id as raw JSON, nil when absent.
func idValue(id wire.ID) jsontext.Value {
	if id.IsZero() {
		return nil
	}
	return jsontext.Value(id.Raw())
}
