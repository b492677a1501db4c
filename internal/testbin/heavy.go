package testbin

import (
	"os"
	"testing"
)

// The environment variables that name the heavy prebuilt components the
// tests use. No test builds or installs one: .ci/run prepares each and
// sets its variable; its guard fails when a test reads a MCPTRAIL_*
// variable it does not set.
const (
	// CollectorEnv names the test OpenTelemetry Collector's binary.
	CollectorEnv = "MCPTRAIL_OTELCOL"
	// ChromiumEnv names the browser binary (Debian's chromium).
	ChromiumEnv = "MCPTRAIL_CHROMIUM"
	// NodeEnv names a directory whose node_modules holds NodePackages.
	NodeEnv = "MCPTRAIL_NODE"
	// NodeOAuthEnv names a directory whose node_modules holds the OAuth
	// clients' packages (.ci/run sets it to NodeEnv's directory).
	NodeOAuthEnv = "MCPTRAIL_NODE_OAUTH"
	// HARSchemaEnv names the lib directory of the npm package har-schema.
	HARSchemaEnv = "MCPTRAIL_HAR_SCHEMA"
	// SARIFSchemaEnv names the lib/schemas directory of the npm package
	// @microsoft/jest-sarif.
	SARIFSchemaEnv = "MCPTRAIL_SARIF_SCHEMA"
)

// Heavy returns the path the environment variable env names: a heavy
// prebuilt component (what, e.g. "the test OpenTelemetry Collector") that
// .ci/run prepares. When env is unset the test fails under CI=true and is
// skipped elsewhere, with one line saying how to get it (how, e.g.
// ".ci/run builds it: cd tools/otelcol && go build"). A set variable
// naming nothing fails the test.
func Heavy(t testing.TB, env, what, how string) string {
	t.Helper()
	p := os.Getenv(env)
	if p == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("needs %s, and %s is unset under CI=true (%s)", what, env, how)
		}
		t.Skipf("skipping: needs %s; set %s (%s)", what, env, how)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s names %s: %v", env, what, err)
	}
	return p
}
