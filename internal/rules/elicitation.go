package rules

import (
	"bytes"
	"regexp"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// sensitiveNames matches form field names and descriptions that ask for a
// credential, payment data or an identity number (spec 3.7: passwords,
// API keys, access tokens, payment credentials). It is a heuristic, as
// rule 30 says.
const sensitiveNames = `(?i)(password|passwd|passphrase|secret|api[_ -]?key|access[_ -]?key|token|credit[_ -]?card|card[_ -]?number|cvv|cvc|(^|[^a-z])ssn([^a-z]|$)|social[_ -]?security)`

// sensitiveWords is sensitiveNames for a field's description, which is
// prose: a token there must be a credential ("access token"), not the
// tokens a model counts.
const sensitiveWords = `(?i)(password|passphrase|secret|api[_ -]?key|access[_ -]?key|(access|api|auth|bearer|refresh|personal)[_ -]?token|credit[_ -]?card|card[_ -]?number|\bcvv\b|\bcvc\b|\bssn\b|social[_ -]?security)`

// The members an MRTR retry's params and an interim result hold; a
// message without them is not read further (a cheap test on every call).
const inputResponses, inputRequests = `"inputResponses"`, `"inputRequests"`

// Elicitation checks elicitation requests and answers, in MRTR
// inputRequests and inputResponses as in legacy elicitation/create calls,
// and (Finish) the session's ledger. Its state is the requestedSchema of
// each form question not yet answered; it belongs to one store.
type Elicitation struct {
	sensitive *regexp.Regexp // sensitiveNames
	described *regexp.Regexp // sensitiveWords
	// schemas holds the requestedSchema of each question asked and not yet
	// answered, by askedKey (MRTR) or legacyKey; nil until one is asked.
	schemas map[string]jsontext.Value
}

// legacyKey files a legacy question by the server's request id.
func legacyKey(id string) string { return "legacy\x00" + id }

// NewElicitation returns the elicitation rules.
func NewElicitation() *Elicitation {
	return &Elicitation{sensitive: regexp.MustCompile(sensitiveNames), described: regexp.MustCompile(sensitiveWords)}
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
		el.retryAnswered(r.Seq, m.Params, r.Redacted, add)
	case m.Kind == wire.KindResponse && r.Dir == capture.C2S && f.CallMethod == mcp.MethodElicit:
		if a := mcp.ElicitAction(m.Result); !knownAction(a) {
			add(finding.New(finding.ElicitActionUnknown, r.Seq, "elicitation/create answered with action %q; want accept, decline or cancel", a))
		}
		var a elicitAnswer
		k := legacyKey(m.ID.Raw())
		if decode(m.Result, &a) && a.Action != "" {
			el.answered(r.Seq, "elicitation/create", el.schemas[k], &a, r.Redacted, add)
		}
		delete(el.schemas, k)
	case m.Kind == wire.KindResponse && r.Dir == capture.S2C && bytes.Contains(m.Result, []byte(inputRequests)):
		for _, e := range mcp.InputElicitations(m.Result) {
			el.sensitiveFields(r.Seq, "inputRequests["+strconv.Quote(e.Key)+"]", &e.Request, add)
		}
		el.interimAsked(r.Seq, m.Result, add)
	case m.Kind == wire.KindRequest && r.Dir == capture.S2C && m.Method == mcp.MethodElicit:
		req := mcp.ParseElicitRequest(m.Params)
		el.sensitiveFields(r.Seq, "elicitation/create", &req, add)
		var p elicitParams
		decode(m.Params, &p)
		el.asked(r.Seq, "elicitation/create", legacyKey(m.ID.Raw()), &p, add)
	}
}

// knownAction reports whether a is an ElicitResult action (spec 3.5); ""
// (no action, or not an elicitation answer) is not judged here.
func knownAction(a string) bool {
	return a == "" || a == "accept" || a == "decline" || a == "cancel"
}

// sensitiveFields flags the form fields of e whose names or descriptions
// ask for a secret.
func (el *Elicitation) sensitiveFields(seq uint64, where string, e *mcp.ElicitRequest, add func(finding.Finding)) {
	if e.Mode != mcp.ModeForm {
		return
	}
	for _, field := range e.Fields {
		switch {
		case el.sensitive.MatchString(field.Name):
			add(finding.New(finding.ElicitSensitiveField, seq,
				"%s asks for %q in form mode; sensitive data must be asked for in URL mode", where, field.Name))
		case el.described.MatchString(field.Description):
			add(finding.New(finding.ElicitSensitiveField, seq,
				"%s asks for %q in form mode, described as a secret; sensitive data must be asked for in URL mode", where, field.Name))
		}
	}
}
