package store

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
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

// seqFinisher raises one finding at seq, without a line, on each snapshot.
type seqFinisher struct{ seq uint64 }

func (seqFinisher) Check(*Frame, func(finding.Finding)) {}

func (f seqFinisher) Finish(_ *Snapshot, raise func(finding.Finding)) {
	raise(finding.New(finding.LateResult, f.seq, "finished"))
}

// TestFindingsCarryTheirLines checks every finding of a snapshot points at
// the capture line of the frame it names: those raised while ingesting,
// the unanswered requests made only as the findings are read, and a
// Finisher's, which names an earlier frame than the record being read.
func TestFindingsCarryTheirLines(t *testing.T) {
	t.Parallel()
	const capt = `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"s","transport":"stdio"}
{"type":"frame","seq":1,"time":"2026-07-28T09:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":null,"method":"tools/list"}}
{"type":"stderr","time":"2026-07-28T09:00:00Z","text":"starting"}
{"type":"frame","seq":2,"time":"2026-07-28T09:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a"}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:00:02Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"b"}}}
{"type":"end","time":"2026-07-28T09:00:05Z"}
`
	r, err := capture.NewReader(strings.NewReader(capt))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Load(r, &Options{Checks: []Check{seqFinisher{seq: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	type at struct {
		Rule string
		Seq  uint64
		Line int
	}
	var got []at
	for f := range snap.Findings.All() {
		got = append(got, at{f.Rule, f.Seq, f.Line})
	}
	want := []at{
		{finding.NullID, 1, 2},
		{finding.LateResult, 2, 4},
		{finding.UnansweredRequest, 2, 4},
		{finding.UnansweredRequest, 3, 5},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	for seq, want := range map[uint64]int{0: 0, 1: 2, 2: 4, 3: 5, 4: 0} {
		if got := snap.Line(seq); got != want {
			t.Errorf("Line(%d) = %d, want %d", seq, got, want)
		}
	}
}
