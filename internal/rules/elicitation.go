package rules

import (
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

// Elicitation checks elicitation requests and answers, in MRTR
// inputRequests and inputResponses as in legacy elicitation/create calls,
// and (Finish) the session's ledger. Its state is the requestedSchema of
// each form question not yet answered; it belongs to one store.
type Elicitation struct {
	sensitive *regexp.Regexp // sensitiveNames
	described *regexp.Regexp // sensitiveWords
	// schemas holds the requestedSchema of each form question asked and
	// not yet answered, by the question's reference as a ledger row holds
	// it: the seq of the frame that asked it, then its inputRequests key
	// ("" for a legacy question); nil until one is asked. An answer finds
	// its question through the ledger row the store paired it with
	// (store.Frame.Answers), never by its id or state. Once a frame's
	// question is answered, its other questions never are (the store
	// pairs a retry with one round), so the frame's entry goes.
	schemas map[uint64]map[string]jsontext.Value
}

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
	case m.Kind == wire.KindRequest && r.Dir == capture.C2S && mcp.MayHoldInputResponses(m.Params):
		el.retry(f, add)
	case m.Kind == wire.KindResponse && r.Dir == capture.C2S && f.CallMethod == mcp.MethodElicit:
		el.legacyAnswer(f, add)
	case m.Kind == wire.KindResponse && r.Dir == capture.S2C && mcp.MayHoldInputRequests(m.Result):
		for _, e := range mcp.InputElicitations(m.Result) {
			el.sensitiveFields(r.Seq, "inputRequests["+strconv.Quote(e.Key)+"]", &e.Request, add)
		}
		el.interimAsked(r.Seq, m.Result, add)
	case m.Kind == wire.KindRequest && r.Dir == capture.S2C && m.Method == mcp.MethodElicit:
		req := mcp.ParseElicitRequest(m.Params)
		el.sensitiveFields(r.Seq, "elicitation/create", &req, add)
		q := mcp.ParseFormQuestion(m.Params)
		el.asked(r.Seq, "elicitation/create", "", &q, add)
	}
	for i := range f.Answers {
		delete(el.schemas, f.Answers[i].AskedSeq)
	}
}

// retry judges an MRTR retry's answers: their actions, then their content.
func (el *Elicitation) retry(f *store.Frame, add func(finding.Finding)) {
	for _, a := range mcp.InputActions(f.Msg.Params) {
		if !knownAction(a.Action) {
			add(finding.New(finding.ElicitActionUnknown, f.Seq,
				"inputResponses[%q] answers with action %q; want accept, decline or cancel", a.Key, a.Action))
		}
	}
	el.retryAnswered(f, add)
}

// legacyAnswer judges the client's answer to a legacy elicitation/create.
func (el *Elicitation) legacyAnswer(f *store.Frame, add func(finding.Finding)) {
	m := f.Msg
	if a := mcp.ElicitAction(m.Result); !knownAction(a) {
		add(finding.New(finding.ElicitActionUnknown, f.Seq, "elicitation/create answered with action %q; want accept, decline or cancel", a))
	}
	if a, ok := mcp.ParseElicitAnswer(m.Result); ok {
		el.answered(f.Seq, "elicitation/create", el.schemaOf(f, store.LedgerLegacy, ""), &a, f.Record.Redacted, add)
	}
}

// schemaOf returns the schema of the question that the frame's answer
// under key (era's) answers, as the store paired them; nil when the store
// paired none or the question was not a form.
func (el *Elicitation) schemaOf(f *store.Frame, era, key string) jsontext.Value {
	for i := range f.Answers {
		if row := &f.Answers[i]; row.Era == era && row.Key == key {
			return el.schemas[row.AskedSeq][row.Key]
		}
	}
	return nil
}

// knownAction reports whether a is an ElicitResult action (spec 3.5); ""
// (no action, or not an elicitation answer) is not judged here.
func knownAction(a string) bool {
	return a == "" || a == "accept" || a == "decline" || a == "cancel"
}

// sensitiveFields flags the form fields of e whose names or descriptions
// ask for a secret.
func (el *Elicitation) sensitiveFields(seq uint64, where string, e *mcp.ElicitRequest, add func(finding.Finding)) {
	if !e.Form() {
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
