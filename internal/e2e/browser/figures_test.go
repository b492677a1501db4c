package browser_test

import (
	"testing"
	"time"
)

// BenchmarkOpen200k opens the report of a 200,000-frame capture (100k
// tools/call) in the browser and reports when its first content was painted
// (fcp-ms, the browser's first-contentful-paint) and when its calls table
// was filled (ready-ms), both from the start of the navigation, and the
// report's size. The target: first content ≤ 2 s.
//
//	go test ./internal/e2e/browser -run XXX -bench Open200k -benchtime 3x
func BenchmarkOpen200k(b *testing.B) {
	report, st := bigReport(b)
	p := openPage(b)
	var fcp, ready float64
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		p.load(b, report)
		ready += float64(time.Since(start).Milliseconds())
		fcp += eval[float64](b, p, `performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1`)
	}
	b.StopTimer()
	if errs := p.problems(); len(errs) > 0 {
		b.Errorf("the report reported errors: %q", errs)
	}
	b.ReportMetric(fcp/float64(b.N), "fcp-ms")
	b.ReportMetric(ready/float64(b.N), "ready-ms")
	b.ReportMetric(float64(st.Size())/(1<<20), "report-MiB")
}
