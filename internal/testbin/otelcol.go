package testbin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// collectorDir is the test collector's module, from the repository root.
const collectorDir = "tools/otelcol"

// CollectorEnv names a prebuilt test collector binary; .ci/run builds it
// before the tests, so that no test spends minutes building.
const CollectorEnv = "MCPTRAIL_OTELCOL"

// BuildCollector returns the path of the test OpenTelemetry Collector
// (tools/otelcol, its own Go module): $MCPTRAIL_OTELCOL when set, else the
// cached build, building it when the cache does not hold it yet. The
// binary is cached under the user cache directory ($XDG_CACHE_HOME, else
// ~/.cache) keyed by a hash of the module's go.mod, go.sum and sources and
// the Go version, so a machine builds it once (minutes on two cores) and
// every later run reuses it. Call it once per test binary (sync.OnceValues).
func BuildCollector() (string, error) {
	if p := os.Getenv(CollectorEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$%s: %w", CollectorEnv, err)
		}
		return p, nil
	}
	return collector()
}

// RequireCollector hands back what BuildCollector returned, or ends the
// test: it fails under CI (CI=true) and is skipped elsewhere, saying why.
func RequireCollector(t testing.TB, bin string, err error) string {
	t.Helper()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the test OpenTelemetry Collector could not be built (CI=true): %v", err)
		}
		t.Skipf("skipping: the test OpenTelemetry Collector could not be built (run `go build` in %s to see why): %v", collectorDir, err)
	}
	return bin
}

func collector() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module root: %w", err)
	}
	src := filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), collectorDir)
	key, err := collectorKey(src)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the cache directory: %w", err)
	}
	dir := filepath.Join(cache, "mcptrail", "otelcol-"+key)
	bin := filepath.Join(dir, "otelcol")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Build beside the final name and rename, so that two test packages
	// building at once never run a half-written binary.
	tmp, err := os.CreateTemp(dir, "otelcol-*.tmp")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// No -trimpath: it would change every package's build cache key, so
	// nothing built for mcptrail itself could be reused.
	cmd := exec.Command("go", "build", "-o", tmp.Name(), ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+os.Getenv("GOFLAGS")+" -mod=readonly -buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %w\n%s", collectorDir, err, out)
	}
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", err
	}
	return bin, nil
}

// collectorKey hashes what the collector binary is built from.
func collectorKey(src string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, name := range []string{"go.mod", "go.sum", "main.go"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return "", fmt.Errorf("reading the collector's sources: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
