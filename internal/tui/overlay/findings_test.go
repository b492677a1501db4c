package overlay

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// findRows lists every row of a findings overlay.
func findRows(t testing.TB, m Overlay) []findRow {
	t.Helper()
	r := rowsOf[findingRows](t, m)
	out := make([]findRow, r.rows)
	for i := range out {
		out[i] = r.rowAt(i)
	}
	return out
}

// TestFindingsIncremental grows a session frame by frame (the capture
// still open, then ended, which adds the unanswered-request findings
// between the others) and checks that the regrouping the overlay does on
// each newer Data gives the rows a fresh overlay gives. It also checks
// that an older model stays as it was when it is given another Data.
func TestFindingsIncremental(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"duplicate-response", "invalid-frames", "ids-null-reused", "cancel-late"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			steps := tuitest.ReadTranscript(t, tuitest.Transcript(name))
			var datas []ui.Data
			for k := 1; k <= len(steps); k++ {
				datas = append(datas, tuitest.Data(t, tuitest.Capture(t, name, steps[:k], false)))
			}
			datas = append(datas, tuitest.Fixture(t, name))
			th := ui.NewTheme(true)
			m := New(th, Findings, datas[0])
			first := m
			for k, d := range datas[1:] {
				m = m.SetData(d)
				want := New(th, Findings, d)
				if diff := cmp.Diff(findRows(t, want), findRows(t, m), cmp.AllowUnexported(findRow{})); diff != "" {
					t.Fatalf("after Data %d (-fresh +incremental):\n%s", k+1, diff)
				}
				if got, want := rowsOf[findingRows](t, m).sev, rowsOf[findingRows](t, want).sev; got != want {
					t.Errorf("after Data %d: severities %v, want %v", k+1, got, want)
				}
			}
			before := findRows(t, m)
			_ = first.SetData(datas[len(datas)-1])
			_ = first.SetData(datas[1])
			if diff := cmp.Diff(before, findRows(t, m), cmp.AllowUnexported(findRow{})); diff != "" {
				t.Errorf("an older model's SetData changed a newer one (-before +after):\n%s", diff)
			}
		})
	}
}

// TestGrowingShared checks that two appends to one growing value do not
// see each other's values.
func TestGrowingShared(t *testing.T) {
	t.Parallel()
	a := growing[int]{}.append(1).append(2).append(3)
	b := a.append(4)
	c := a.append(5)
	if diff := cmp.Diff([]int{1, 2, 3, 4}, b.s); diff != "" {
		t.Errorf("b (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 5}, c.s); diff != "" {
		t.Errorf("c (-want +got):\n%s", diff)
	}
	d := b.truncate(2).append(6)
	if diff := cmp.Diff([]int{1, 2, 3, 4}, b.s); diff != "" {
		t.Errorf("b after d (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 2, 6}, d.s); diff != "" {
		t.Errorf("d (-want +got):\n%s", diff)
	}
}

// TestFindingsOlderModel gives one model two different newer Data: each
// result shows its own findings.
func TestFindingsOlderModel(t *testing.T) {
	t.Parallel()
	f := func(seq uint64, rule string) finding.Finding {
		return finding.Finding{Rule: rule, Severity: finding.Error, Seq: seq, Call: -1, Message: rule}
	}
	data := func(fs ...finding.Finding) ui.Data {
		return ui.Data{Snap: &store.Snapshot{Findings: store.FindingsOf(fs)}}
	}
	a := New(nil, Findings, data(f(1, "x"), f(2, "x"), f(3, "x")))
	b := a.SetData(data(f(1, "x"), f(2, "x"), f(3, "x"), f(4, "x")))
	c := a.SetData(data(f(1, "x"), f(2, "x"), f(3, "x"), f(5, "x")))
	if got := rowsOf[findingRows](t, b).rowAt(4).f.Seq; got != 4 {
		t.Errorf("b's last finding has seq %d, want 4", got)
	}
	if got := rowsOf[findingRows](t, c).rowAt(4).f.Seq; got != 5 {
		t.Errorf("c's last finding has seq %d, want 5", got)
	}
}
