package diff

import (
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

// DefaultMinSlowerMS is the floor diff and replay give Options.MinSlowerMS:
// a call or p50 that took less than 50ms longer is not called slower
// whatever the factor, since a few milliseconds that doubled are the
// machine's jitter (a loaded CI runner), not the server's.
const DefaultMinSlowerMS = 50

// Options are the comparison's knobs. The zero value compares everything
// but durations.
type Options struct {
	// SlowerThan is the factor by which a duration must grow to count as
	// slower (2 means twice as slow), for matched calls and each method's
	// and tool's p50; 0 compares no duration and leaves Latency empty.
	SlowerThan float64
	// MinSlowerMS is how many milliseconds longer than the older
	// session's the newer's call or p50 must take to count as slower,
	// besides the factor, so that the machine's jitter is not a
	// difference; zero means no floor. The handshake's durations
	// (initialize, server/discover) are never compared: on stdio they
	// hold the server's start-up.
	MinSlowerMS float64
	// IgnorePaths lists JSON Pointers (RFC 6901) of result members whose
	// changes are not reported (a timestamp, say); a pointer also covers
	// everything under it. Nil ignores nothing.
	IgnorePaths []string
}

// Report is what differs between session A (the older, or the recording)
// and session B. Its JSON form (WriteJSON) is documented by the json tags;
// every list is present, empty when nothing differs.
type Report struct {
	A Side `json:"a"`
	B Side `json:"b"`
	// Catalog lists the definitions added, removed or changed (by hash)
	// between the catalogs the two servers listed last.
	Catalog []CatalogDelta `json:"catalog"`
	Calls   Calls          `json:"calls"`
	// Ledger lists the elicitation questions added, removed or asked or
	// answered differently.
	Ledger   []QuestionDelta `json:"ledger"`
	Findings Findings        `json:"findings"`
	// Latency lists the methods and tools whose p50 changed (only when
	// Options.SlowerThan is set); a row counts as a difference only when
	// Slower.
	Latency []Latency `json:"latency"`
}

// Side names one of the sessions compared.
type Side struct {
	Session string `json:"session"`
	Label   string `json:"label,omitempty"`
	// Calls counts the calls compared: client calls, an MRTR operation
	// counting once.
	Calls int `json:"calls"`
}

// CatalogDelta is one definition added, removed or changed. Old and New
// are the definitions (nil when absent), for a caller that classifies the
// change.
type CatalogDelta struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	// Change is store.ChangeAdded, store.ChangeRemoved or store.ChangeChanged.
	Change  string            `json:"change"`
	OldHash string            `json:"old_hash,omitempty"`
	NewHash string            `json:"new_hash,omitempty"`
	Old     *store.Definition `json:"-"`
	New     *store.Definition `json:"-"`
	// Drift classifies a changed tool the way check --tools-baseline
	// does (rules.CompareCatalogs): description, schema loosened or
	// tightened, annotations, each with the old and new text. Empty for
	// other kinds and for a change it does not classify.
	Drift []rules.ToolChange `json:"drift,omitempty"`
}

// Calls compares the client calls. A call of A is matched with a call of
// B of the same method, target and canonical arguments; among several, in
// order. An MRTR operation is one call: its root's request, its final
// answer, its tool time (the human's wait excluded).
type Calls struct {
	// Matched counts the matched pairs; Operations those that are MRTR
	// operations on either side.
	Matched    int `json:"matched"`
	Operations int `json:"operations"`
	// Changed lists the matched pairs whose outcome differs.
	Changed []CallDelta `json:"changed"`
	// OnlyA and OnlyB list the calls without a match on the other side.
	OnlyA []CallRef `json:"only_a"`
	OnlyB []CallRef `json:"only_b"`
	// Slower lists the matched pairs whose duration grew by
	// Options.SlowerThan or more.
	Slower []Slower `json:"slower"`
}

// CallRef identifies a call of one session.
type CallRef struct {
	Method string `json:"method"`
	Target string `json:"target,omitempty"`
	// Arguments is the canonical JSON of the call's arguments ("{}" when
	// none).
	Arguments string `json:"arguments"`
	// Index is the index of the call (an operation's root) in its
	// session; Seq the seq of its request.
	Index int    `json:"index"`
	Seq   uint64 `json:"seq"`
}

// The kinds of error change of a CallDelta.
const (
	ErrorAppeared = "appeared" // A succeeded, B failed
	ErrorGone     = "gone"     // A failed, B succeeded
	ErrorChanged  = "changed"  // both failed, differently
)

// CallDelta is a matched pair of calls whose outcome differs.
type CallDelta struct {
	CallRef `json:",inline"`
	// BIndex is the index of the call in B.
	BIndex int `json:"b_index"`
	// OldStatus and NewStatus are the store.Status* of each side.
	OldStatus string `json:"old_status"`
	NewStatus string `json:"new_status"`
	// Error is ErrorAppeared, ErrorGone, ErrorChanged or "" (no change
	// in failure); OldError and NewError describe each side's failure
	// ("-32602 bad params", "tool error").
	Error    string `json:"error,omitempty"`
	OldError string `json:"old_error,omitempty"`
	NewError string `json:"new_error,omitempty"`
	// Result lists the differences between the two results; empty when
	// either side has none.
	Result []Delta `json:"result"`
	// OldRounds and NewRounds count the requests the call took (more
	// than 1 for an MRTR operation); equal unless that changed.
	OldRounds int `json:"old_rounds"`
	NewRounds int `json:"new_rounds"`
}

// Slower is a matched pair of calls whose duration grew; the durations
// are rounded to the microsecond (roundMS), as every duration of the
// report.
type Slower struct {
	CallRef `json:",inline"`
	BIndex  int     `json:"b_index"`
	OldMS   float64 `json:"old_ms"`
	NewMS   float64 `json:"new_ms"`
}

// The changes of a QuestionDelta.
const (
	QuestionAdded   = "added"
	QuestionRemoved = "removed"
	QuestionChanged = "changed"
)

// QuestionDelta is an elicitation question only one session asked, or
// one both asked differently. A question is identified by the method and
// target of its call and its inputRequests key (or, without a key, its
// rank among the call's questions); several alike pair in order.
type QuestionDelta struct {
	Method string `json:"method"`
	Target string `json:"target,omitempty"`
	Key    string `json:"key,omitempty"`
	Change string `json:"change"`
	// Message is the question's message (B's when changed).
	Message string `json:"message"`
	// Changes lists what differs for a changed question.
	Changes []Change `json:"changes"`
}

// What a Change of a question names.
const (
	ChangeMessage  = "message"        // reworded
	ChangeMode     = "mode"           // form / url
	ChangeAction   = "action"         // answered differently: accept, decline, cancel
	ChangeStatus   = "status"         // answered, pending, required, error
	ChangeField    = "field-added"    // a form field only B asks for
	ChangeNoField  = "field-removed"  // a form field only A asked for
	ChangeType     = "field-type"     // a field's declared type
	ChangeRequired = "field-required" // a field's required flag
	ChangeOptions  = "field-options"  // a select field's options
	ChangeHost     = "url-host"       // the url-mode url's host
)

// Change is one difference of a question. Field names the form field for
// the field changes; Old and New are the words of each side.
type Change struct {
	What  string `json:"what"`
	Field string `json:"field,omitempty"`
	Old   string `json:"old,omitempty"`
	New   string `json:"new,omitempty"`
}

// Findings lists the findings only one session raised, matched by rule
// id and the method and target of the call they concern (never by seq).
type Findings struct {
	New  []FindingRef `json:"new"`
	Gone []FindingRef `json:"gone"`
}

// FindingRef is a finding of one session.
type FindingRef struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity,omitempty"`
	Method   string `json:"method,omitempty"`
	Target   string `json:"target,omitempty"`
	Seq      uint64 `json:"seq"`
	Message  string `json:"message"`
}

// Latency is the p50 of one method or tool in each session.
type Latency struct {
	// Group is "method", "tool" or "server request".
	Group string  `json:"group"`
	Name  string  `json:"name"`
	OldMS float64 `json:"old_p50_ms"`
	NewMS float64 `json:"new_p50_ms"`
	// Slower reports whether NewMS grew by Options.SlowerThan or more.
	Slower bool `json:"slower"`
}

// Differs reports whether anything differs. A latency row that is not
// Slower does not count.
func (r *Report) Differs() bool {
	if len(r.Catalog)+len(r.Ledger)+len(r.Findings.New)+len(r.Findings.Gone) > 0 {
		return true
	}
	c := &r.Calls
	if len(c.Changed)+len(c.OnlyA)+len(c.OnlyB)+len(c.Slower) > 0 {
		return true
	}
	for _, l := range r.Latency {
		if l.Slower {
			return true
		}
	}
	return false
}

// WriteJSON writes r as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	if err := json.MarshalWrite(w, r, jsontext.WithIndent("  ")); err != nil {
		return fmt.Errorf("writing the diff: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}
