package mcp

import (
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The questions and answers as the content rules judge them: a form's raw
// requestedSchema and an answer's raw content. They decode strictly (JSON
// names are case-sensitive, a repeated name is an error), leaving what
// did not decode zero; only elicitation frames are read so.

// FormQuestion is what a question's params say of its form: the mode as
// written ("" when absent: form mode) and the raw requestedSchema (nil
// when absent).
type FormQuestion struct {
	Mode            string         `json:"mode"`
	RequestedSchema jsontext.Value `json:"requestedSchema"`
}

// KeyedQuestion is a FormQuestion filed under an inputRequests key.
type KeyedQuestion struct {
	Key      string
	Question FormQuestion
}

// ElicitAnswer is an ElicitResult as the content rules read it: the action
// verbatim and the raw content (nil when absent).
type ElicitAnswer struct {
	Action  string         `json:"action"`
	Content jsontext.Value `json:"content"`
}

// KeyedAnswer is an ElicitAnswer filed under an inputResponses key.
type KeyedAnswer struct {
	Key    string
	Answer ElicitAnswer
}

// ParseFormQuestion reads an elicitation/create's params as far as they
// decode.
func ParseFormQuestion(params jsontext.Value) FormQuestion {
	var q FormQuestion
	_ = json.Unmarshal(params, &q)
	return q
}

// InputQuestions returns the elicitation/create entries of an interim
// result's inputRequests, sorted by key; an entry that does not decode is
// skipped, and inputRequests that do not decode give the entries read
// before the error.
func InputQuestions(result jsontext.Value) []KeyedQuestion {
	var r struct {
		InputRequests map[string]jsontext.Value `json:"inputRequests"`
	}
	_ = json.Unmarshal(result, &r)
	var out []KeyedQuestion
	for _, key := range sortedKeys(r.InputRequests) {
		var q struct {
			Method string       `json:"method"`
			Params FormQuestion `json:"params"`
		}
		if json.Unmarshal(r.InputRequests[key], &q) != nil || q.Method != MethodElicit {
			continue
		}
		out = append(out, KeyedQuestion{Key: key, Question: q.Params})
	}
	return out
}

// ParseElicitAnswer reads an ElicitResult; ok is false when it does not
// decode or has no action (a sampling or roots answer, say).
func ParseElicitAnswer(result jsontext.Value) (a ElicitAnswer, ok bool) {
	return a, json.Unmarshal(result, &a) == nil && a.Action != ""
}

// InputAnswers returns the entries of a retry's inputResponses that
// ParseElicitAnswer accepts, sorted by key; inputResponses that do not
// decode give the entries read before the error.
func InputAnswers(params jsontext.Value) []KeyedAnswer {
	var r struct {
		InputResponses map[string]jsontext.Value `json:"inputResponses"`
	}
	_ = json.Unmarshal(params, &r)
	var out []KeyedAnswer
	for _, key := range sortedKeys(r.InputResponses) {
		if a, ok := ParseElicitAnswer(r.InputResponses[key]); ok {
			out = append(out, KeyedAnswer{Key: key, Answer: a})
		}
	}
	return out
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]jsontext.Value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// MayHoldInputResponses and MayHoldInputRequests report whether raw
// params (a retry's) or a result (an interim one) may hold the member: a
// byte test cheap enough for every frame, true for any message that does.
func MayHoldInputResponses(params jsontext.Value) bool {
	return jsonraw.ContainsAt(params, `"inputResponses"`, 6)
}

// MayHoldInputRequests is MayHoldInputResponses for inputRequests.
func MayHoldInputRequests(result jsontext.Value) bool {
	return jsonraw.ContainsAt(result, `"inputRequests"`, 6)
}
