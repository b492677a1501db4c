package overlay

import (
	"slices"
	"testing"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// BenchmarkLedgerView draws the ledger overlay of a 10k-row ledger, the
// selection half-way down.
func BenchmarkLedgerView(b *testing.B) {
	m := New(ui.NewTheme(true), Ledger, ledgerData(10_000)).SetSize(120, 40)
	for range 5_000 {
		m, _ = m.Update(tuitest.Press("down"))
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(m.View()) == 0 {
			b.Fatal("empty view")
		}
	}
}

// BenchmarkLedgerKey is what a key press costs the user on a 10k-row
// ledger: Update and the View after it.
func BenchmarkLedgerKey(b *testing.B) {
	m := New(ui.NewTheme(true), Ledger, ledgerData(10_000)).SetSize(120, 40)
	down, up := tuitest.Press("down"), tuitest.Press("up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := down
		if i/500%2 == 1 {
			k = up
		}
		m, _ = m.Update(k)
		_ = m.View()
		i++
	}
}

// BenchmarkLedgerSetData hands the overlay of a 10k-row ledger, two of
// whose rows are pending, a newer Data in which one of them was answered
// and ten more rows (three pending) were asked: twelve rows changed.
func BenchmarkLedgerSetData(b *testing.B) {
	rows := ledgerData(10_010).Snap.Ledger.Slice()
	for i := range rows {
		if i != 9_002 && i < 10_000-3 { // 9_998 stays pending
			rows[i].Status, rows[i].Action = store.LedgerAnswered, "accept"
		}
	}
	older := ui.Data{Snap: &store.Snapshot{Ledger: store.ListOf(slices.Clone(rows[:10_000]))}}
	rows[9_002].Status, rows[9_002].Action = store.LedgerAnswered, "decline"
	newer := ui.Data{Snap: &store.Snapshot{Ledger: store.ListOf(rows)}}
	m := New(ui.NewTheme(true), Ledger, older).SetSize(120, 40)
	if got := rowsOf[ledgerRows](b, m.SetData(newer)).counts; got.pending != 4 || got.decline != 1 || got.asked != 10_010 {
		b.Fatalf("counts = %+v", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = m.SetData(newer)
	}
}

// BenchmarkFindingsSetData hands the findings overlay over 100k findings
// of 4 rules a newer Data with ten more: it compares the 100k and groups
// the ten.
func BenchmarkFindingsSetData(b *testing.B) {
	ids := []string{"unanswered-request", "duplicate-response", "late-result", "null-id"}
	fs := make([]finding.Finding, 100_010)
	for i := range fs {
		fs[i] = finding.Finding{Rule: ids[i%4], Severity: finding.Warning, Seq: uint64(i + 1), Call: i, Message: "m"}
	}
	older := ui.Data{Snap: &store.Snapshot{Findings: store.FindingsOf(fs[:100_000])}}
	newer := ui.Data{Snap: &store.Snapshot{Findings: store.FindingsOf(fs)}}
	th := ui.NewTheme(true)
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		m := New(th, Findings, older).SetSize(120, 40) // the model owns its findings, as in the app
		b.StartTimer()
		if in(b, m.SetData(newer)).count() != 100_014 {
			b.Fatal("wrong rows")
		}
	}
}
