package rules

import (
	"bytes"
	"regexp"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// sensitiveNames matches form field names that ask for a credential or
// payment data (spec 3.7: passwords, API keys, access tokens, payment
// credentials). It is a heuristic, as rule 30 says.
const sensitiveNames = `(?i)(password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|token|credit[_-]?card|card[_-]?number|cvv|cvc)`

// The members an MRTR retry's params and an interim result hold; a
// message without them is not read further (a cheap test on every call).
const inputResponses, inputRequests = `"inputResponses"`, `"inputRequests"`

// Elicitation checks elicitation requests and answers, in MRTR
// inputRequests and inputResponses as in legacy elicitation/create calls.
// It keeps no state about the session.
type Elicitation struct {
	sensitive *regexp.Regexp // sensitiveNames
}

// NewElicitation returns the elicitation rules.
func NewElicitation() *Elicitation {
	return &Elicitation{sensitive: regexp.MustCompile(sensitiveNames)}
}

// Check runs the elicitation rules on one correlated frame.
func (el *Elicitation) Check(f *store.Frame, raise func(finding.Finding)) {
	m, r := f.Msg, f.Record
	add := func(fd finding.Finding) {
		if f.Call >= 0 {
			fd = fd.OfCall(f.Call)
		}
		raise(fd)
	}
	switch {
	case m.Kind == wire.KindRequest && r.Dir == capture.C2S && bytes.Contains(m.Params, []byte(inputResponses)):
		for _, a := range mcp.InputActions(m.Params) {
			if !knownAction(a.Action) {
				add(finding.New(finding.ElicitActionUnknown, r.Seq,
					"inputResponses[%q] answers with action %q; want accept, decline or cancel", a.Key, a.Action))
			}
		}
	case m.Kind == wire.KindResponse && r.Dir == capture.C2S && f.CallMethod == mcp.MethodElicit:
		if a := mcp.ElicitAction(m.Result); !knownAction(a) {
			add(finding.New(finding.ElicitActionUnknown, r.Seq, "elicitation/create answered with action %q; want accept, decline or cancel", a))
		}
	case m.Kind == wire.KindResponse && r.Dir == capture.S2C && bytes.Contains(m.Result, []byte(inputRequests)):
		for _, e := range mcp.InputElicitations(m.Result) {
			el.sensitiveFields(r.Seq, "inputRequests["+strconv.Quote(e.Key)+"]", &e.Request, add)
		}
	case m.Kind == wire.KindRequest && r.Dir == capture.S2C && m.Method == mcp.MethodElicit:
		req := mcp.ParseElicitRequest(m.Params)
		el.sensitiveFields(r.Seq, "elicitation/create", &req, add)
	}
}

// knownAction reports whether a is an ElicitResult action (spec 3.5); ""
// (no action, or not an elicitation answer) is not judged here.
func knownAction(a string) bool {
	return a == "" || a == "accept" || a == "decline" || a == "cancel"
}

// sensitiveFields flags the form fields of e whose names ask for a secret.
func (el *Elicitation) sensitiveFields(seq uint64, where string, e *mcp.ElicitRequest, add func(finding.Finding)) {
	if e.Mode != mcp.ModeForm {
		return
	}
	for _, field := range e.Fields {
		if el.sensitive.MatchString(field.Name) {
			add(finding.New(finding.ElicitSensitiveForm, seq,
				"%s asks for %q in form mode; sensitive data must be asked for in URL mode", where, field.Name))
		}
	}
}
