package rules

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// interimAsked reads an interim result's form questions: it raises
// schema-unsupported and files each schema for the answer.
func (el *Elicitation) interimAsked(seq uint64, result []byte, add func(finding.Finding)) {
	for _, q := range mcp.InputQuestions(result) {
		el.asked(seq, fmt.Sprintf("inputRequests[%q]", q.Key), q.Key, &q.Question, add)
	}
}

// asked checks one form question's schema and files it under the frame's
// seq and key.
func (el *Elicitation) asked(seq uint64, where, key string, p *mcp.FormQuestion, add func(finding.Finding)) {
	if p.Mode != "" && p.Mode != mcp.ModeForm || len(p.RequestedSchema) == 0 {
		return
	}
	if why := unsupportedSchema(p.RequestedSchema); why != "" {
		add(finding.New(finding.ElicitSchemaUnsupported, seq, "%s requestedSchema is outside the form subset: %s", where, why))
	}
	if el.schemas == nil {
		el.schemas = map[uint64]map[string]jsontext.Value{}
	}
	if el.schemas[seq] == nil {
		el.schemas[seq] = map[string]jsontext.Value{}
	}
	el.schemas[seq][key] = bytes.Clone(p.RequestedSchema)
}

// retryAnswered reads a retry's answers: content with decline or cancel,
// and accepted content that fails the schema of the question the store
// paired it with.
func (el *Elicitation) retryAnswered(f *store.Frame, add func(finding.Finding)) {
	for _, a := range mcp.InputAnswers(f.Msg.Params) {
		schema := el.schemaOf(f, store.LedgerMRTR, a.Key)
		el.answered(f.Seq, fmt.Sprintf("inputResponses[%q]", a.Key), schema, &a.Answer, f.Record.Redacted, add)
	}
}

// answered judges one answer against the schema it answers (nil: the
// question was not seen or not a form). With redacted (the record is
// marked redacted), a value redaction replaced is not judged.
func (el *Elicitation) answered(seq uint64, where string, schema jsontext.Value, a *mcp.ElicitAnswer, redacted bool, add func(finding.Finding)) {
	hasContent := len(a.Content) > 0 && string(a.Content) != "null"
	switch {
	case hasContent && (a.Action == mcp.ActionDecline || a.Action == mcp.ActionCancel):
		add(finding.New(finding.ElicitContentOnDecline, seq, "%s answers %s with content; content belongs to accept only", where, a.Action))
	case hasContent && a.Action == mcp.ActionAccept && schema != nil:
		for _, v := range contentViolations(schema, a.Content, redacted) {
			add(finding.New(finding.ElicitContentInvalid, seq, "%s content: %s", where, v))
		}
	}
}

// contentViolations validates content against schema and describes each
// failure by field and constraint, never by value. A schema that does not
// compile or content that is not JSON gives none (other rules say so).
// With redacted, a failure at a value that is, or lies inside, the
// redaction placeholder is dropped: redaction made it unverifiable.
func contentViolations(schema, content jsontext.Value, redacted bool) []string {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(content))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mcptrail:requested", doc); err != nil {
		return nil
	}
	sch, err := c.Compile("mcptrail:requested")
	if err != nil {
		return nil
	}
	hidden := func([]string) bool { return false }
	if redacted {
		hidden = func(loc []string) bool { return placeholderAt(inst, loc) }
	}
	var out []string
	if ve, ok := sch.Validate(inst).(*jsonschema.ValidationError); ok {
		collectViolations(ve, hidden, &out)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// collectViolations appends a "field: constraint" line for each leaf of
// ve but those at a location hidden reports (a redacted value). Only
// locations and keyword names are read: error messages of some keywords
// quote the value.
func collectViolations(ve *jsonschema.ValidationError, hidden func(loc []string) bool, out *[]string) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collectViolations(c, hidden, out)
		}
		return
	}
	if hidden(ve.InstanceLocation) {
		return
	}
	keyword := strings.Join(ve.ErrorKind.KeywordPath(), "/")
	field := "(the content)"
	if len(ve.InstanceLocation) > 0 {
		field = fmt.Sprintf("field %q", strings.Join(ve.InstanceLocation, "/"))
	}
	if k, ok := ve.ErrorKind.(*kind.Required); ok {
		for _, m := range k.Missing {
			*out = append(*out, fmt.Sprintf("field %q fails required (missing)", m))
		}
		return
	}
	*out = append(*out, fmt.Sprintf("%s fails %s", field, keyword))
}

// placeholderAt reports whether the value at loc in inst (a decoded
// instance), or one of the values on the way to it, is the redaction
// placeholder.
func placeholderAt(inst any, loc []string) bool {
	v := inst
	for i := 0; ; i++ {
		if s, ok := v.(string); ok && s == capture.RedactedValue {
			return true
		}
		if i == len(loc) {
			return false
		}
		switch c := v.(type) {
		case map[string]any:
			v = c[loc[i]]
		case []any:
			n, err := strconv.Atoi(loc[i])
			if err != nil || n < 0 || n >= len(c) {
				return false
			}
			v = c[n]
		default:
			return false
		}
	}
}
