package events

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Meta is what every event of a session shares.
type Meta struct {
	SessionID string
	Label     string
	Transport string
}

// MetaOf returns the Meta of a snapshot's session.
func MetaOf(s *store.Session) Meta {
	return Meta{SessionID: s.ID, Label: s.Label, Transport: s.Transport}
}

// FromSnapshot returns the events of a snapshot, in the order they
// happened; nil when the store kept no event log (store.Options.Events).
func FromSnapshot(snap *store.Snapshot) []Event {
	if snap.Events == nil {
		return nil
	}
	m := MetaOf(&snap.Session)
	out := make([]Event, len(snap.Events.Changes))
	for i := range snap.Events.Changes {
		out[i] = FromChange(&m, &snap.Events.Changes[i])
	}
	return out
}

// FromChange builds the event of one change. It reads nothing but its
// arguments, so it is the same live and offline.
func FromChange(m *Meta, ch *store.Change) Event {
	e := Event{
		ID:            m.SessionID + "-" + strconv.Itoa(ch.Ordinal),
		SessionID:     m.SessionID,
		ClientName:    ch.Client.Name,
		ClientVersion: ch.Client.Version,
		ServerName:    ch.Server.Name,
		ServerVersion: ch.Server.Version,
		Seq:           ch.Seq,
		Tags:          tags(m),
	}
	if ch.Kind == store.ChangeOperation {
		operation(&e, ch)
	} else {
		elicitation(&e, ch)
	}
	return e
}

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

// operation fills a completed operation's event.
func operation(e *Event, ch *store.Change) {
	c, root := ch.Call, ch.Root
	e.EventType = "mcp:" + root.Method
	e.Method = root.Method
	e.Timestamp = root.Start
	e.ResourceName = root.Target
	e.RequestID = idValue(root.ID)
	e.Parameters, e.Response = ch.Params, ch.Result
	e.Status = c.Status
	if c.ResultType != "" && c.ResultType != mcp.ResultComplete {
		e.ResultType = c.ResultType
	}
	e.ProtocolVersion = root.ProtocolVersion
	e.Era = root.Era
	e.TraceParent, e.TraceState, e.HTTPSessionID = ch.TraceParent, ch.TraceState, ch.HTTPSession
	dur, wait, rounds := c.DurationMS, 0.0, 1
	if op := ch.Operation; op != nil {
		dur, wait, rounds = op.DurationMS, op.WaitMS, len(op.Rounds)
	}
	tool := dur - wait
	e.DurationMS, e.WaitMS, e.ToolMS, e.Rounds = &dur, &wait, &tool, rounds
	if c.Late {
		e.tag("late", "true")
	}
	e.Error = callError(c)
	e.IsError = e.Error != nil
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

// elicitation fills a create or response event from a ledger row.
func elicitation(e *Event, ch *store.Change) {
	row := ch.Row
	el := &Elicitation{
		Era: row.Era, Mode: row.Mode, Message: row.Message, URL: row.URL, Host: row.Host,
		ElicitationID: row.ElicitationID, Key: row.Key, Round: row.Round,
		RequestID: idValue(row.RequestID), Observations: row.Observations,
	}
	for _, f := range ch.Fields {
		el.Fields = append(el.Fields, Field{
			Name: f.Name, Type: f.Type, Required: f.Required, Format: f.Format,
			MinLength: f.MinLength, MaxLength: f.MaxLength, Minimum: f.Minimum, Maximum: f.Maximum, Choices: f.Choices,
		})
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
	if ch.Root != nil {
		e.ProtocolVersion, e.Era = ch.Root.ProtocolVersion, ch.Root.Era
	} else if ch.Call != nil {
		e.ProtocolVersion, e.Era = ch.Call.ProtocolVersion, ch.Call.Era
	}
	if ch.Kind == store.ChangeAsked {
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
	el.AnswerFields, el.Content = ch.AnswerFields, ch.Answer
	if row.Status == store.LedgerError {
		e.IsError = true
		e.Error = &Error{Type: "elicitation_error"}
	}
}

// idValue returns a JSON-RPC id as raw JSON, nil when absent.
func idValue(id wire.ID) jsontext.Value {
	if id.IsZero() {
		return nil
	}
	return jsontext.Value(id.Raw())
}
