package store

import (
	"cmp"
	"iter"
	"slices"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// Findings is a snapshot's findings ordered by seq (a stable order:
// session-wide findings, seq 0, last). The unanswered-request findings of
// a capture that ended are not held but made from the calls as they are
// read, so that a session of a million open calls does not hold a million
// findings beside them. The zero value is empty.
type Findings struct {
	list []finding.Finding
	// rules grades the lazily made unanswered-request findings.
	rules *finding.Registry
	// calls, when not empty, are the calls whose unanswered ones are
	// flagged between the findings of list; n counts both.
	calls Calls
	n     int
	// lines locates the lazily made findings (lines.go).
	lines lineIndex
}

// FindingsOf returns Findings holding fs, which must be ordered.
func FindingsOf(fs []finding.Finding) Findings { return Findings{list: fs, n: len(fs)} }

// Len returns the number of findings.
func (fs *Findings) Len() int { return fs.n }

// All yields the findings in order.
func (fs *Findings) All() iter.Seq[finding.Finding] {
	return func(yield func(finding.Finding) bool) {
		i := 0
		for c := range fs.unanswered() {
			for ; i < len(fs.list) && seqOrder(fs.list[i].Seq) <= c.RequestSeq; i++ {
				if !yield(fs.list[i]) {
					return
				}
			}
			if f, ok := grade(fs.rules, &fs.lines, unansweredFinding(c)); ok && !yield(f) {
				return
			}
		}
		for ; i < len(fs.list); i++ {
			if !yield(fs.list[i]) {
				return
			}
		}
	}
}

// Slice returns the findings as one slice.
func (fs *Findings) Slice() []finding.Finding {
	out := make([]finding.Finding, 0, fs.n)
	for f := range fs.All() {
		out = append(out, f)
	}
	return out
}

// unanswered yields the calls flagged as never answered, in order.
func (fs *Findings) unanswered() iter.Seq[*Call] {
	return func(yield func(*Call) bool) {
		for i := range fs.calls.Len() {
			if c := fs.calls.At(i); unanswered(&c) && !yield(&c) {
				return
			}
		}
	}
}

// unanswered reports whether c would be flagged as never answered in a
// capture that ended: it has no answer, was not cancelled, and is not a
// subscriptions/listen stream (listen.go).
func unanswered(c *Call) bool {
	return c.ResponseSeq == 0 && c.CancelSeq == 0 && c.Method != methodListen
}

func unansweredFinding(c *Call) finding.Finding {
	return finding.New(finding.UnansweredRequest, c.RequestSeq, "%s %s id %s was never answered", c.Dir, c.Method, c.ID.Raw()).OfCall(c.Index)
}

// raise adds a finding: every finding the store raises while it ingests
// goes through here, and every other one it makes (those a snapshot
// decides, appendGraded; the unanswered requests, Findings.All; the held
// HTTP ones, http.go) through grade, which raise calls too.
func (s *Store) raise(f finding.Finding) {
	f, ok := s.graded(f)
	if !ok {
		return
	}
	s.findings = append(s.findings, f)
	s.emitFinding()
	if s.opts.Forget {
		s.findings = s.findings[:0]
	}
}

// graded is grade with the store's registry and line index; under Forget,
// which keeps no index, a finding at the record being ingested still takes
// its line.
func (s *Store) graded(f finding.Finding) (finding.Finding, bool) {
	if f.Line == 0 {
		f.Line = s.lineOf(f.Seq)
	}
	return grade(s.opts.Rules, &s.lines, f)
}

// grade is the one path every finding of the store takes: rules grades it
// (a disabled rule's is dropped, ok false) and a finding that names a
// frame and has no line yet takes that frame's capture line from lines.
func grade(rules *finding.Registry, lines *lineIndex, f finding.Finding) (finding.Finding, bool) {
	f, ok := rules.Grade(f)
	if !ok {
		return f, false
	}
	lines.locate(&f.Line, f.Seq)
	return f, true
}

// allFindings returns the findings raised while ingesting plus those only
// the end of the capture decides, ordered by seq (session-wide findings,
// seq 0, last).
//
// Unanswered requests are flagged only when the capture ended cleanly (an
// end record): in a live or torn capture an unanswered call may simply
// still be running. Cancelled calls are not flagged. They are made as the
// findings are read when their seqs never go down and are not zero (so
// that merging them yields the stable order); otherwise they are held.
// finished are the findings of the Finishers (finishChecks).
func (s *Store) allFindings(calls *Calls, finished []finding.Finding) Findings {
	if len(finished) == 0 && s.findingsInOrder() && !s.sess.Ended && !s.sess.Damage.Torn && s.sess.Damage.Corrupt == 0 {
		// Nothing to add or sort: share the list, which is only appended to.
		return FindingsOf(s.findings[:len(s.findings):len(s.findings)])
	}
	out := append(slices.Clone(s.findings), finished...)
	var lazy bool
	var n int
	if s.sess.Ended && s.opts.Rules.Enabled(finding.UnansweredRequest) {
		n, lazy = countUnanswered(calls)
		if !lazy {
			for i := range calls.Len() {
				if c := calls.At(i); unanswered(&c) {
					out = s.appendGraded(out, unansweredFinding(&c))
				}
			}
		}
	}
	if d := s.sess.Damage; d.Torn {
		out = s.appendGraded(out, finding.New(finding.CaptureTorn, 0, "the last line is torn (%d bytes skipped)", d.TornBytes))
	}
	if d := s.sess.Damage; d.Corrupt > 0 {
		out = s.appendGraded(out, finding.New(finding.CaptureCorrupt, 0, "%d lines could not be decoded (first at lines %v)", d.Corrupt, d.CorruptLines))
	}
	slices.SortStableFunc(out, func(a, b finding.Finding) int {
		return cmp.Compare(seqOrder(a.Seq), seqOrder(b.Seq))
	})
	fs := FindingsOf(out)
	if lazy && n > 0 {
		fs.calls, fs.n, fs.rules, fs.lines = *calls, len(out)+n, s.opts.Rules, s.lines.share()
	}
	return fs
}

// appendGraded appends f to fs when Options.Rules keeps it, graded and
// located (grade). The findings only a snapshot decides (the capture's
// damage, the Finishers', the unanswered requests) are made here, not
// raised, so that each snapshot makes them afresh.
func (s *Store) appendGraded(fs []finding.Finding, f finding.Finding) []finding.Finding {
	if f, ok := s.graded(f); ok {
		return append(fs, f)
	}
	return fs
}

// findingsInOrder reports whether the findings raised so far are ordered
// by seq, checking only those raised since it was last asked.
func (s *Store) findingsInOrder() bool {
	for i := max(1, s.checked); i < len(s.findings) && !s.disordered; i++ {
		s.disordered = seqOrder(s.findings[i].Seq) < seqOrder(s.findings[i-1].Seq)
	}
	s.checked = len(s.findings)
	return !s.disordered
}

// countUnanswered counts the unanswered calls, reporting whether their
// seqs are all non-zero and never go down.
func countUnanswered(calls *Calls) (int, bool) {
	n, last, ordered := 0, uint64(1), true
	for i := range calls.Len() {
		c := calls.At(i)
		if !unanswered(&c) {
			continue
		}
		n++
		if c.RequestSeq < last {
			ordered = false
		}
		last = max(last, c.RequestSeq)
	}
	return n, ordered
}

// lineOf returns the capture line of the record being ingested when its
// seq is seq, else 0.
func (s *Store) lineOf(seq uint64) int {
	if r := s.feed.rec; r != nil && r.Seq == seq {
		return r.Line
	}
	return 0
}
