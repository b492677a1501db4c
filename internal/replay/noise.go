package replay

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// Noise is what differed between two replays of one plan against the
// same server, as Twitter's Diffy learns it: what the server varies by
// itself (a fresh id, a UUID, a timestamp, a nonce). A comparison with
// the recording does not report it (Comparison.Quiet). The zero value is
// no noise.
type Noise struct {
	// Paths lists the result members that differed between the two runs,
	// by call, in the order of the first run's calls.
	Paths []NoisePath `json:"paths"`
	// Calls lists the calls whose outcome (status, error, rounds)
	// differed between the two runs.
	Calls []diff.CallRef `json:"calls"`
	// Findings lists the findings only one of the two runs raised.
	Findings []diff.FindingRef `json:"findings"`
	// Questions lists the elicitation questions asked differently.
	Questions []diff.QuestionDelta `json:"questions"`
	// Catalog lists the definitions that differed between the two runs'
	// catalogs.
	Catalog []diff.CatalogDelta `json:"catalog"`
}

// NoisePath is a result member that one call of the server varied by
// itself: the call by method, target and canonical arguments, the member
// by JSON Pointer.
type NoisePath struct {
	Method    string `json:"method"`
	Target    string `json:"target,omitempty"`
	Arguments string `json:"arguments"`
	Path      string `json:"path"`
}

// Learn compares two replays of one plan against the same server (first
// and second, both with their frames) and returns what differed between
// them: the noise. opts are the comparison's options (IgnorePaths apply;
// durations are never compared).
func Learn(first, second *store.Snapshot, opts diff.Options) (*Noise, error) {
	opts.SlowerThan = 0
	rep, err := diff.Sessions(first, second, opts)
	if err != nil {
		return nil, err
	}
	n := &Noise{Paths: []NoisePath{}, Calls: []diff.CallRef{},
		Findings:  append(append([]diff.FindingRef{}, rep.Findings.New...), rep.Findings.Gone...),
		Questions: append([]diff.QuestionDelta{}, rep.Ledger...),
		Catalog:   append([]diff.CatalogDelta{}, rep.Catalog...)}
	for _, d := range rep.Calls.Changed {
		for _, r := range d.Result {
			np := NoisePath{Method: d.Method, Target: d.Target, Arguments: d.Arguments, Path: r.Path}
			if !slices.Contains(n.Paths, np) {
				n.Paths = append(n.Paths, np)
			}
		}
		if outcomeDiffers(&d) {
			n.Calls = append(n.Calls, d.CallRef)
		}
	}
	return n, nil
}

// Empty reports whether n holds no noise.
func (n *Noise) Empty() bool {
	return n == nil || len(n.Paths)+len(n.Calls)+len(n.Findings)+len(n.Questions)+len(n.Catalog) == 0
}

func outcomeDiffers(d *diff.CallDelta) bool {
	return d.Error != "" || d.OldStatus != d.NewStatus || d.OldRounds != d.NewRounds
}

func sameCall(a, b *diff.CallRef) bool {
	return a.Method == b.Method && a.Target == b.Target && a.Arguments == b.Arguments
}

// noisy reports whether a result member at path of call c is noise.
func (n *Noise) noisy(c *diff.CallRef, path string) bool {
	for _, p := range n.Paths {
		if p.Method == c.Method && p.Target == c.Target && p.Arguments == c.Arguments &&
			(path == p.Path || strings.HasPrefix(path, p.Path+"/") || p.Path == "") {
			return true
		}
	}
	return false
}

// Quiet leaves out of the report what n says the server varies by itself:
// the result members each call varied, the outcome of a call whose
// outcome varied, the findings, questions and definitions that differed
// between the two runs; a changed call left with no difference is no
// longer listed. It keeps n to be reported (WriteNoise).
func (c *Comparison) Quiet(n *Noise) {
	c.Noise = n
	if n.Empty() {
		return
	}
	rep := c.Report
	changed := rep.Calls.Changed[:0]
	for _, d := range rep.Calls.Changed {
		d.Result = slices.DeleteFunc(d.Result, func(r diff.Delta) bool { return n.noisy(&d.CallRef, r.Path) })
		if slices.ContainsFunc(n.Calls, func(r diff.CallRef) bool { return sameCall(&r, &d.CallRef) }) {
			d.Error, d.OldError, d.NewError = "", "", ""
			d.NewStatus, d.NewRounds = d.OldStatus, d.OldRounds
		}
		if len(d.Result) > 0 || outcomeDiffers(&d) {
			changed = append(changed, d)
		}
	}
	rep.Calls.Changed = changed
	sameFinding := func(f diff.FindingRef) bool {
		return slices.ContainsFunc(n.Findings, func(g diff.FindingRef) bool {
			return g.Rule == f.Rule && g.Method == f.Method && g.Target == f.Target
		})
	}
	rep.Findings.New = slices.DeleteFunc(rep.Findings.New, sameFinding)
	rep.Findings.Gone = slices.DeleteFunc(rep.Findings.Gone, sameFinding)
	rep.Ledger = slices.DeleteFunc(rep.Ledger, func(q diff.QuestionDelta) bool {
		return slices.ContainsFunc(n.Questions, func(r diff.QuestionDelta) bool {
			return r.Method == q.Method && r.Target == q.Target && r.Key == q.Key
		})
	})
	rep.Catalog = slices.DeleteFunc(rep.Catalog, func(d diff.CatalogDelta) bool {
		return slices.ContainsFunc(n.Catalog, func(r diff.CatalogDelta) bool { return r.Kind == d.Kind && r.Key == d.Key })
	})
}

// WriteText writes what was treated as noise, one thing a line; nothing
// when there was none.
func (n *Noise) WriteText(w io.Writer) error {
	if n.Empty() {
		return nil
	}
	var b strings.Builder
	b.WriteString("volatile (differed between two runs of the server; not compared):\n")
	for _, p := range n.Paths {
		fmt.Fprintf(&b, "  %s result %s\n", termtext.Escape(callName(p.Method, p.Target)), termtext.Escape(pathText(p.Path)))
	}
	for _, c := range n.Calls {
		fmt.Fprintf(&b, "  %s outcome\n", termtext.Escape(callName(c.Method, c.Target)))
	}
	for _, f := range n.Findings {
		fmt.Fprintf(&b, "  finding %s %s\n", termtext.Escape(f.Rule), termtext.Escape(callName(f.Method, f.Target)))
	}
	for _, q := range n.Questions {
		fmt.Fprintf(&b, "  question %s", termtext.Escape(callName(q.Method, q.Target)))
		if q.Key != "" {
			fmt.Fprintf(&b, " key %q", termtext.Escape(q.Key))
		}
		b.WriteString("\n")
	}
	for _, d := range n.Catalog {
		fmt.Fprintf(&b, "  catalog %s %s\n", termtext.Escape(d.Kind), termtext.Escape(d.Key))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// callName names a call as the diff report does: method[target].
func callName(method, target string) string {
	if target == "" {
		return method
	}
	return method + "[" + target + "]"
}

func pathText(p string) string {
	if p == "" {
		return "(the whole result)"
	}
	return p
}

// Matched keeps of n only what both runs had and differed in: the result
// members and outcomes of matched calls, questions and definitions both
// runs had. It is the noise of two runs whose plans differ (the learning
// run sends no call that may be destructive, and asks tools/list to judge
// by): a question, finding or definition only one run had comes from a
// call only that run made, not from the server varying by itself.
func (n *Noise) Matched() {
	if n == nil {
		return
	}
	n.Findings = []diff.FindingRef{}
	n.Questions = slices.DeleteFunc(n.Questions, func(q diff.QuestionDelta) bool {
		return q.Change == diff.QuestionAdded || q.Change == diff.QuestionRemoved
	})
	n.Catalog = slices.DeleteFunc(n.Catalog, func(c diff.CatalogDelta) bool {
		return c.Change != store.ChangeChanged
	})
}
