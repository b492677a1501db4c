package mcp

import (
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Elicitation modes (spec 3.2). A request without a mode is form mode.
// ModeApp is not a wire mode: it is a form-mode request whose
// params._meta.ui.resourceUri names the MCP App that renders the form
// (SEP-3118, apps.go); its answer is an ordinary form ElicitResult.
const (
	ModeForm = "form"
	ModeURL  = "url"
	ModeApp  = "app"
)

// Elicitation actions (spec 3.5). Other strings occur on the wire and are
// kept verbatim.
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// Legacy elicitation wire names (spec 3.6, 3.8).
const (
	// MethodElicitComplete is the 2025-11-25 notification that a url-mode
	// elicitation finished.
	MethodElicitComplete = "notifications/elicitation/complete"
	// CodeURLElicitationRequired is the 2025-11-25 error whose
	// data.elicitations lists url-mode questions the user must answer first.
	CodeURLElicitationRequired = -32042
)

// FieldUnknown is the type of a requested property whose subschema is not
// an object (a redaction placeholder, say) or declares no string type.
const FieldUnknown = "unknown"

// ElicitRequest is the shape of one elicitation/create's params: what was
// asked and how (with a select field's options, the server's words),
// never a default or example. Its strings are
// copies; it does not alias the params.
type ElicitRequest struct {
	// Mode is params.mode, or ModeForm when absent or not a string;
	// ModeApp for a form whose _meta.ui.resourceUri names an app.
	Mode    string
	Message string
	// Fields lists requestedSchema.properties in wire order (form mode
	// only; nil otherwise).
	Fields []ElicitField
	// URL and ElicitationID are params.url and params.elicitationId (url
	// mode only; empty otherwise).
	URL           string
	ElicitationID string
	// Resource is the ui:// resource of an app-rendered form (ModeApp);
	// empty otherwise.
	Resource string
}

// Form reports whether e asks with a form: form mode, or an app-rendered
// form (ModeApp), whose answer is a form's.
func (e *ElicitRequest) Form() bool { return e.Mode == ModeForm || e.Mode == ModeApp }

// ElicitField is one property a form asks for.
type ElicitField struct {
	Name string
	// Type is what FieldType makes of the subschema: its type member, an
	// enum, a union such as "string|null", or FieldUnknown.
	Type     string
	Required bool
	// Options lists a select field's options (FieldType); nil otherwise.
	Options []string
	// Description is the subschema's description member, or "" (the
	// server's words, read by the sensitive-field lint).
	Description string
}

// ParseElicitRequest reads an elicitation/create's params (spec 3.2-3.4).
// Absent or non-object params give a form request with no fields.
func ParseElicitRequest(params jsontext.Value) ElicitRequest {
	e := ElicitRequest{Mode: ModeForm}
	var schema, url, id []byte
	eachMember(params, func(name, val []byte) bool {
		switch string(name) {
		case "mode":
			if s, ok := jsonraw.String(val); ok {
				e.Mode = s
			}
		case "message":
			e.Message, _ = jsonraw.String(val)
		case "requestedSchema":
			schema = val
		case "url":
			url = val
		case "elicitationId":
			id = val
		}
		return true
	})
	if e.Mode == ModeForm {
		if uri := ElicitAppResource(params); uri != "" {
			e.Mode, e.Resource = ModeApp, uri
		}
	}
	switch e.Mode {
	case ModeForm, ModeApp:
		e.Fields = parseFields(schema)
	case ModeURL:
		e.URL, _ = jsonraw.String(url)
		e.ElicitationID, _ = jsonraw.String(id)
	}
	return e
}

// parseFields lists a requested schema's properties with their declared
// types and required flags; always non-nil.
func parseFields(schema []byte) []ElicitField {
	var props, required []byte
	eachMember(schema, func(name, val []byte) bool {
		switch string(name) {
		case "properties":
			props = val
		case "required":
			required = val
		}
		return true
	})
	var req []string
	jsonraw.EachElement(required, func(v []byte) {
		if s, ok := jsonraw.String(v); ok {
			req = append(req, s)
		}
	})
	fields := []ElicitField{}
	eachMember(props, func(name, val []byte) bool {
		f := ElicitField{Name: string(name)}
		f.Type, f.Options = FieldType(val)
		f.Description, _ = jsonraw.String(jsonraw.Member(val, "description"))
		for _, r := range req {
			f.Required = f.Required || r == f.Name
		}
		fields = append(fields, f)
		return true
	})
	return fields
}

// KeyedElicitation is an elicitation/create filed under an inputRequests
// key.
type KeyedElicitation struct {
	Key     string
	Request ElicitRequest
}

// InputElicitations returns the elicitation/create entries of an
// InputRequiredResult's inputRequests, sorted by key (as
// Result.InputRequests is); sampling and roots entries are skipped.
func InputElicitations(result jsontext.Value) []KeyedElicitation {
	var out []KeyedElicitation
	eachMember(result, func(name, inputs []byte) bool {
		if string(name) != "inputRequests" {
			return true
		}
		eachMember(inputs, func(key, val []byte) bool {
			var method string
			var params []byte
			eachMember(val, func(n, v []byte) bool {
				switch string(n) {
				case "method":
					method, _ = jsonraw.String(v)
				case "params":
					params = v
				}
				return true
			})
			if method == MethodElicit {
				out = append(out, KeyedElicitation{Key: string(key), Request: ParseElicitRequest(params)})
			}
			return true
		})
		return false
	})
	slices.SortStableFunc(out, func(a, b KeyedElicitation) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// KeyedAction is the action of one inputResponses entry.
type KeyedAction struct {
	Key string
	// Action is the entry's action string, verbatim; "" when it has none
	// or it is not a string.
	Action string
}

// InputActions returns the action of every entry of a retry request's
// params.inputResponses, in wire order. Only action members are read: an
// answer's content is never looked at.
func InputActions(params jsontext.Value) []KeyedAction {
	var out []KeyedAction
	eachMember(params, func(name, responses []byte) bool {
		if string(name) != "inputResponses" {
			return true
		}
		eachMember(responses, func(key, val []byte) bool {
			out = append(out, KeyedAction{Key: string(key), Action: ElicitAction(val)})
			return true
		})
		return false
	})
	return out
}

// ElicitAction returns the action member of an ElicitResult, verbatim; ""
// when it has none or it is not a string. Content is never read.
func ElicitAction(result jsontext.Value) string {
	var action string
	eachMember(result, func(name, val []byte) bool {
		if string(name) == "action" {
			action, _ = jsonraw.String(val)
			return false
		}
		return true
	})
	return action
}

// RequiredElicitations returns the questions of a -32042 error's
// data.elicitations (spec 3.6), in order.
func RequiredElicitations(data jsontext.Value) []ElicitRequest {
	var out []ElicitRequest
	eachMember(data, func(name, val []byte) bool {
		if string(name) != "elicitations" {
			return true
		}
		jsonraw.EachElement(val, func(v []byte) {
			out = append(out, ParseElicitRequest(v))
		})
		return false
	})
	return out
}

// ElicitationID returns params.elicitationId of a
// notifications/elicitation/complete, or "".
func ElicitationID(params jsontext.Value) string {
	var id string
	eachMember(params, func(name, val []byte) bool {
		if string(name) == "elicitationId" {
			id, _ = jsonraw.String(val)
			return false
		}
		return true
	})
	return id
}
