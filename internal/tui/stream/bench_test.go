package stream

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// bigCalls is the size of the benchmarks' session.
const bigCalls = 200_000

// big returns the Data of a session of n tools/call, each answered, read
// by the real source from a capture written by the real Writer.
func big(b *testing.B, n int, ended bool) ui.Data {
	b.Helper()
	return tuitest.Data(b, tuitest.Capture(b, "big", calls(n), ended))
}

// BenchmarkSetData200k measures the first SetData of a 200k-call session:
// indexing every call and drawing the first screen.
func BenchmarkSetData200k(b *testing.B) {
	d := big(b, bigCalls, true)
	b.ReportAllocs()
	for b.Loop() {
		m := New(ui.NewTheme(true)).SetSize(120, 40).SetData(d)
		_ = m.View()
	}
}

// BenchmarkSetDataGrow measures a newer Data adding 1,000 calls to a
// 199k-call session being followed, with a filter applied.
func BenchmarkSetDataGrow(b *testing.B) {
	d1 := big(b, bigCalls-1000, false)
	d2 := big(b, bigCalls, false)
	base := New(ui.NewTheme(true)).SetSize(120, 40).apply("!status:error")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := base.SetData(d1)
		b.StartTimer()
		m = m.SetData(d2)
		_ = m.View()
	}
}

// BenchmarkKey200k measures one key press, Update and View, at 200k rows.
func BenchmarkKey200k(b *testing.B) {
	m := New(ui.NewTheme(true)).SetSize(120, 40).SetData(big(b, bigCalls, true))
	m, _ = tuitest.Send(m, "g")
	keys := []string{"j", "pgdown", "k", "space"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m, _ = m.Update(tuitest.Press(keys[i%len(keys)]))
		_ = m.View()
		i++
	}
}

// BenchmarkFilter200k measures applying a filter at 200k rows (rebuilding
// the index) and drawing the screen.
func BenchmarkFilter200k(b *testing.B) {
	m := New(ui.NewTheme(true)).SetSize(120, 40).SetData(big(b, bigCalls, true))
	filters := []string{"status:error", "tool:tool_3 slow:>4ms", "boom", ""}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m = m.apply(filters[i%len(filters)])
		_ = m.View()
		i++
	}
}
