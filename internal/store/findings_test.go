package store

import (
	"cmp"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	gocmp "github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// eagerFindings is the order Findings must yield: every finding, the
// unanswered-request ones included, stably sorted by seq (seq 0 last).
func eagerFindings(s *Store, calls *Calls) []finding.Finding {
	out := slices.Clone(s.findings)
	for i := range calls.Len() {
		if c := calls.At(i); unanswered(&c) {
			out = append(out, unansweredFinding(&c))
		}
	}
	if s.sess.Damage.Torn {
		out = append(out, finding.New(finding.CaptureTorn, 0, "the last line is torn (%d bytes skipped)", s.sess.Damage.TornBytes))
	}
	slices.SortStableFunc(out, func(a, b finding.Finding) int { return cmp.Compare(seqOrder(a.Seq), seqOrder(b.Seq)) })
	return out
}

// TestFindingsMerged checks that the unanswered-request findings made as
// the findings are read come in the order holding them all would give:
// ties at one seq (a finding raised by the request itself first), seq-0
// findings last, and captures whose seqs go down or are zero, for which
// they are held instead.
func TestFindingsMerged(t *testing.T) {
	t.Parallel()
	frame := func(seq uint64, msg string) *capture.Record {
		return &capture.Record{Type: capture.TypeFrame, Seq: seq, Time: t0, Dir: capture.C2S, Msg: jsontext.Value(msg)}
	}
	tests := []struct {
		name string
		seqs []uint64
		lazy bool
	}{
		{"ordered", []uint64{1, 2, 3, 4}, true},
		{"seq goes down", []uint64{1, 4, 2, 3}, false},
		{"zero seq", []uint64{0, 1, 2, 3}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New(nil)
			s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion})
			msgs := []string{
				req("1", "ping", ""),
				req("1", "ping", ""), // id reused in flight: a finding at this seq, then its unanswered one
				`{"jsonrpc":"2.0","id":9,"result":{}}`,
				req("2", "tools/list", ""),
			}
			for i, m := range msgs {
				s.Ingest(frame(tt.seqs[i], m))
			}
			s.Ingest(&capture.Record{Type: capture.TypeEnd, Time: t0})
			s.SetDamage(capture.Damage{Torn: true, TornBytes: 3})
			snap := s.Snapshot()
			want := eagerFindings(s, &snap.Calls)
			if diff := gocmp.Diff(want, snap.Findings.Slice()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if snap.Findings.Len() != len(want) {
				t.Errorf("Len = %d, want %d", snap.Findings.Len(), len(want))
			}
			if lazy := snap.Findings.calls.Len() > 0; lazy != tt.lazy {
				t.Errorf("unanswered findings made as read: %v, want %v", lazy, tt.lazy)
			}
			n := 0
			for range snap.Findings.All() {
				if n++; n == 2 {
					break
				}
			}
		})
	}
}
