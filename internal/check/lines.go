package check

import (
	"sort"

	"github.com/mcptrail/mcptrail/internal/store"
)

// lineIndex maps the seqs of a session's frames to their capture lines.
// Seqs grow through a session and consecutive frames mostly sit on
// consecutive lines with consecutive seqs, so it keeps runs of them: a
// 200k-frame capture costs a few runs, not two 200k-element slices grown
// while the store ingests. Should seqs not ascend, line falls back to the
// search of the frames in the order they came (flat).
type lineIndex struct {
	runs    []lineRun
	descent bool // some seq did not exceed the one before
	// flatSeqs and flatLines are every frame's seq and line, made from
	// runs when first needed if descent is set.
	flatSeqs  []uint64
	flatLines []int
}

// lineRun is n frames with seqs seq, seq+1, … on lines line, line+1, ….
type lineRun struct {
	seq  uint64
	line int
	n    int
}

func (x *lineIndex) add(f *store.Frame) {
	if f.Record == nil || f.Record.Line <= 0 {
		return
	}
	seq, line := f.Seq, f.Record.Line
	if k := len(x.runs) - 1; k >= 0 {
		r := &x.runs[k]
		if last := r.seq + uint64(r.n) - 1; seq <= last {
			x.descent = true
		}
		if r.seq+uint64(r.n) == seq && r.line+r.n == line {
			r.n++
			return
		}
	}
	x.runs = append(x.runs, lineRun{seq: seq, line: line, n: 1})
}

// line returns the capture line of the frame seq, 0 when unknown.
func (x *lineIndex) line(seq uint64) int {
	if x.descent {
		return x.flatLine(seq)
	}
	// The last run starting at or before seq.
	i := sort.Search(len(x.runs), func(i int) bool { return x.runs[i].seq > seq }) - 1
	if i < 0 {
		return 0
	}
	if r := x.runs[i]; seq-r.seq < uint64(r.n) {
		return r.line + int(seq-r.seq)
	}
	return 0
}

// flatLine is line over every frame in order, for seqs that do not
// ascend: the first frame at or past seq in a binary search, if it is seq.
func (x *lineIndex) flatLine(seq uint64) int {
	if x.flatSeqs == nil {
		for _, r := range x.runs {
			for k := range r.n {
				x.flatSeqs = append(x.flatSeqs, r.seq+uint64(k))
				x.flatLines = append(x.flatLines, r.line+k)
			}
		}
	}
	i := sort.Search(len(x.flatSeqs), func(i int) bool { return x.flatSeqs[i] >= seq })
	if i < len(x.flatSeqs) && x.flatSeqs[i] == seq {
		return x.flatLines[i]
	}
	return 0
}
