package store

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// flatIndex is lineIndex as it was: every frame's seq and line, searched.
type flatIndex struct {
	seqs  []uint64
	lines []int
}

func (x *flatIndex) add(seq uint64, line int) {
	x.seqs, x.lines = append(x.seqs, seq), append(x.lines, line)
}

func (x *flatIndex) line(seq uint64) int {
	i := sort.Search(len(x.seqs), func(i int) bool { return x.seqs[i] >= seq })
	if i < len(x.seqs) && x.seqs[i] == seq {
		return x.lines[i]
	}
	return 0
}

// TestLineIndex checks the run-length lineIndex against the flat search
// on frames that follow each other, skip seqs or lines (stderr lines,
// notes, other sessions), lack a line, and whose seqs go back.
func TestLineIndex(t *testing.T) {
	for _, tc := range []struct {
		name    string
		descend bool
	}{{"ascending", false}, {"seqs going back", true}} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			var runs lineIndex
			var flat flatIndex
			seq, line := uint64(1), 2
			for i := range 5000 {
				switch r.IntN(10) {
				case 0:
					seq += uint64(r.IntN(3) + 1)
				case 1:
					line += r.IntN(3) + 1
				case 2:
					if tc.descend && i%50 == 0 {
						seq -= min(seq-1, uint64(r.IntN(50)+1))
					}
				}
				l := line
				if r.IntN(20) == 0 {
					l = 0 // a record built in memory
				}
				runs.add(seq, l)
				if l > 0 {
					flat.add(seq, line)
				}
				seq++
				line++
			}
			if tc.descend != runs.descent {
				t.Fatalf("descent = %v, want %v", runs.descent, tc.descend)
			}
			if !tc.descend && len(runs.runs) > len(flat.seqs)/3 {
				t.Errorf("%d runs for %d frames", len(runs.runs), len(flat.seqs))
			}
			shared := runs.share()
			for q := uint64(0); q < seq+5; q++ {
				want := flat.line(q)
				if got := runs.line(q); got != want {
					t.Fatalf("line(%d) = %d, want %d", q, got, want)
				}
				if got := shared.line(q); got != want {
					t.Fatalf("shared line(%d) = %d, want %d", q, got, want)
				}
			}
		})
	}
}
