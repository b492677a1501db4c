package testbin

import "testing"

// Collector returns the path of the prebuilt test OpenTelemetry Collector
// (tools/otelcol, its own Go module): $MCPTRAIL_OTELCOL. Without it the
// test skips, or fails under CI=true (Heavy).
func Collector(t testing.TB) string {
	t.Helper()
	return Heavy(t, CollectorEnv, "the test OpenTelemetry Collector",
		".ci/run builds it: cd tools/otelcol && go build -o /tmp/otelcol .")
}
