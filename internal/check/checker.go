package check

import (
	"fmt"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Checker checks sessions one after another and collects the Report. It
// is not safe for concurrent use.
type Checker struct {
	opts   Options
	reg    *finding.Registry
	report Report
	// seen holds every item's baseline entry, suppressed ones too, for
	// WriteBaseline.
	seen []BaselineEntry
}

// New returns a Checker; opts nil means the zero Options.
func New(opts *Options) *Checker {
	c := &Checker{}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.FailOn == "" {
		c.opts.FailOn = finding.Error
	}
	if c.opts.Rules == nil {
		c.reg = rules.Default()
		c.opts.Assert.EnableIn(c.reg)
	} else {
		c.reg = c.opts.Rules.Clone()
	}
	for id, set := range c.opts.Assert.ids() {
		if !set {
			_ = c.reg.Disable(id) // every assertion rule is in rules.Default
		}
	}
	if c.opts.Tools == nil {
		for _, id := range rules.DriftIDs() {
			_ = c.reg.Disable(id) // every drift rule is in rules.Default
		}
	}
	c.report = Report{Tool: c.opts.Tool, FailOn: c.opts.FailOn}
	for _, r := range c.reg.Rules() {
		if c.reg.Enabled(r.ID) {
			r.Severity = c.reg.Severity(r.ID)
			c.report.Rules = append(c.report.Rules, r)
		}
	}
	return c
}

// Report returns the report of the sessions checked so far.
func (c *Checker) Report() *Report { return &c.report }

// Check reads the session r is at to its end and adds its Result. path
// names the capture in the report ("-" for standard input). A damaged
// capture is checked (its damage is a finding); an error reading it is
// returned and adds nothing.
func (c *Checker) Check(r *capture.Reader, path string) error {
	if c.opts.Redactor != nil {
		c.opts.Redactor.Reset()
	}
	s, err := session.Load(r, &session.Options{Rules: c.reg, Redactor: c.opts.Redactor})
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	c.report.Results = append(c.report.Results, c.result(s.Snapshot, path))
	return nil
}

// result builds the Result of snap: the graded findings and assertions,
// described, located, fingerprinted and filtered by the baseline.
func (c *Checker) result(snap *store.Snapshot, path string) Result {
	res := Result{Path: path, SessionID: snap.Session.ID, Label: snap.Session.Label, Damage: snap.Session.Damage}
	res.Unlisted = c.opts.Tools != nil && rules.ToolList(snap.Catalog) == nil && rules.SkillList(snap.Catalog) == nil
	fs := make([]finding.Finding, 0, snap.Findings.Len())
	for f := range snap.Findings.All() {
		fs = append(fs, f)
	}
	for _, f := range append(assertions(snap, &c.opts.Assert), drift(snap, c.opts.Tools)...) {
		if f, ok := c.reg.Grade(f); ok {
			fs = append(fs, f)
		}
	}
	// The store's order: by seq, session-wide findings (seq 0) last.
	slices.SortStableFunc(fs, func(a, b finding.Finding) int { return cmpSeq(a.Seq, b.Seq) })
	var fp fingerprinter
	for _, f := range fs {
		it := Item{Finding: f, Call: describe(snap, f.Call)}
		if it.Line == 0 {
			// The store located its findings; the assertions and drift
			// findings made here from the snapshot take their line too.
			it.Line = snap.Line(it.Seq)
		}
		it.Fingerprint = fp.next(&it)
		c.seen = append(c.seen, entryOf(&it))
		if c.opts.Baseline.has(it.Fingerprint) {
			res.Suppressed++
			continue
		}
		res.Items = append(res.Items, it)
	}
	return res
}

// cmpSeq orders seqs with 0 (session-wide) last.
func cmpSeq(a, b uint64) int {
	a, b = a-1, b-1 // 0 wraps to the largest
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// describe names call i of snap: its method and target ("tools/call
// create_account"), "" when i is no call.
func describe(snap *store.Snapshot, i int) string {
	if i < 0 || i >= snap.Calls.Len() {
		return ""
	}
	call := snap.Calls.At(i)
	if call.Target == "" {
		return call.Method
	}
	return call.Method + " " + call.Target
}
