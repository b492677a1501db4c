package store

import "sort"

// lineIndex maps the seqs of a session's frames to their capture lines,
// so that every finding points at the line of the frame it names (the
// store knows each frame's Record.Line; the views do not look it up).
// Seqs grow through a session and consecutive frames mostly sit on
// consecutive lines with consecutive seqs, so it keeps runs of them: a
// 200k-frame capture costs a few runs, not two 200k-element slices. Once
// a seq does not exceed the one before (descent), it keeps every frame's
// seq and line instead (flat), searched as the frames came.
//
// The store only appends to the slices and changes the last run in
// place; share copies that run, so a snapshot's index never changes.
type lineIndex struct {
	runs []lineRun
	// last is the last run of a shared index (runs then excludes it).
	last    lineRun
	descent bool
	// flatSeqs and flatLines are every frame's seq and line once descent
	// is set.
	flatSeqs  []uint64
	flatLines []int
}

// lineRun is n frames with seqs seq, seq+1, … on lines line, line+1, ….
type lineRun struct {
	seq  uint64
	line int
	n    int
}

// add records that frame seq is on line; a line of 0 or less (unknown) is
// not recorded.
func (x *lineIndex) add(seq uint64, line int) {
	if line <= 0 {
		return
	}
	if x.descent {
		x.flatSeqs, x.flatLines = append(x.flatSeqs, seq), append(x.flatLines, line)
		return
	}
	if k := len(x.runs) - 1; k >= 0 {
		r := &x.runs[k]
		if seq <= r.seq+uint64(r.n)-1 {
			x.flatten()
			x.flatSeqs, x.flatLines = append(x.flatSeqs, seq), append(x.flatLines, line)
			return
		}
		if r.seq+uint64(r.n) == seq && r.line+r.n == line {
			r.n++
			return
		}
	}
	x.runs = append(x.runs, lineRun{seq: seq, line: line, n: 1})
}

// flatten turns the runs into the flat lists and sets descent.
func (x *lineIndex) flatten() {
	x.descent = true
	for _, r := range x.runs {
		for k := range r.n {
			x.flatSeqs = append(x.flatSeqs, r.seq+uint64(k))
			x.flatLines = append(x.flatLines, r.line+k)
		}
	}
	x.runs = nil
}

// share returns a copy of the index that later adds do not change.
func (x *lineIndex) share() lineIndex {
	if x.descent {
		n := len(x.flatSeqs)
		return lineIndex{descent: true, flatSeqs: x.flatSeqs[:n:n], flatLines: x.flatLines[:n:n]}
	}
	n := len(x.runs)
	if n == 0 {
		return lineIndex{}
	}
	return lineIndex{runs: x.runs[: n-1 : n-1], last: x.runs[n-1]}
}

// line returns the capture line of the frame seq, 0 when unknown.
func (x *lineIndex) line(seq uint64) int {
	if seq == 0 {
		return 0
	}
	if x.descent {
		// The first frame at or past seq in a binary search, if it is seq.
		i := sort.Search(len(x.flatSeqs), func(i int) bool { return x.flatSeqs[i] >= seq })
		if i < len(x.flatSeqs) && x.flatSeqs[i] == seq {
			return x.flatLines[i]
		}
		return 0
	}
	if x.last.n > 0 && seq >= x.last.seq {
		return x.last.at(seq)
	}
	// The last run starting at or before seq.
	i := sort.Search(len(x.runs), func(i int) bool { return x.runs[i].seq > seq }) - 1
	if i < 0 {
		return 0
	}
	return x.runs[i].at(seq)
}

// at returns the line of seq in r, 0 when r does not hold it.
func (r lineRun) at(seq uint64) int {
	if seq >= r.seq && seq-r.seq < uint64(r.n) {
		return r.line + int(seq-r.seq)
	}
	return 0
}

// locate sets f.Line from the index when the finding names a frame and
// has no line yet.
func (x *lineIndex) locate(line *int, seq uint64) {
	if *line == 0 && seq != 0 {
		*line = x.line(seq)
	}
}
