package sdk_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// metricsLine is the line mcptrail prints once /metrics is served.
var metricsLine = regexp.MustCompile(`mcptrail: metrics on (http://\S+/metrics)`)

// TestPrometheusMetrics runs a 2026-07-28 go-sdk client and server
// through mcptrail --metrics-listen and scrapes /metrics while the session
// is still open: the operation histogram counts both tool calls by
// status, the elicitation counters say one form question was accepted and
// one declined, the human wait histogram holds both answers (each at
// least the client's answering delay) and the capture counters saw the
// frames.
func TestPrometheusMetrics(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.Command(bins.mcptrail, "--capture", filepath.Join(dir, "session.jsonl"),
		"--label", "metrics-e2e", "--metrics-listen", "127.0.0.1:0", "--", bins.sdkserver)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+dir)
	stderr := new(testbin.Buffer)
	cmd.Stderr = stderr
	ans := newAnswerer()
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion},
		&mcp.ClientOptions{ElicitationHandler: ans.Handle})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateAfter},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.Bytes())
	}
	defer cs.Close()
	m := metricsLine.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no metrics address on stderr:\n%s", stderr.Bytes())
	}
	ans.Queue("accept", "decline")
	for range 2 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm"}); err != nil {
			t.Fatalf("calling confirm: %v\n%s", err, stderr.Bytes())
		}
	}
	const calls = `mcptrail_operation_duration_seconds_count{method="tools/call",status="%s",tool="confirm"}`
	got := scrapeUntil(ctx, t, m[1], strings.Replace(calls, "%s", "tool-error", 1))
	want := map[string]float64{
		strings.Replace(calls, "%s", "ok", 1):                                                    1,
		strings.Replace(calls, "%s", "tool-error", 1):                                            1,
		`mcptrail_operation_wait_seconds_count{method="tools/call",tool="confirm"}`:              2,
		`mcptrail_elicitations_asked_total{mode="form"}`:                                         2,
		`mcptrail_elicitations_answered_total{action="accept",mode="form"}`:                      1,
		`mcptrail_elicitations_answered_total{action="decline",mode="form"}`:                     1,
		`mcptrail_elicitation_human_wait_seconds_count{action="accept",mode="form"}`:             1,
		`mcptrail_elicitation_human_wait_seconds_count{action="decline",mode="form"}`:            1,
		`mcptrail_elicitation_human_wait_seconds_bucket{action="decline",mode="form",le="+Inf"}`: 1,
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			got[k] = -1
		}
	}
	picked := map[string]float64{}
	for k := range want {
		picked[k] = got[k]
	}
	if diff := cmp.Diff(want, picked); diff != "" {
		t.Errorf("scraped metrics (-want +got):\n%s", diff)
	}
	for _, action := range []string{"accept", "decline"} {
		k := `mcptrail_elicitation_human_wait_seconds_sum{action="` + action + `",mode="form"}`
		if got[k] < handlerDelay.Seconds() {
			t.Errorf("%s = %g, want at least the client's answering delay %v", k, got[k], handlerDelay)
		}
	}
	if got[`mcptrail_capture_records_total{type="frame"}`] < 8 || got[`mcptrail_capture_frame_bytes_total{dir="c2s"}`] <= 0 {
		t.Errorf("capture counters: %v frames, %v c2s bytes", got[`mcptrail_capture_records_total{type="frame"}`], got[`mcptrail_capture_frame_bytes_total{dir="c2s"}`])
	}
	if info := `mcptrail_session_info{label="metrics-e2e",session_id=`; !hasPrefixKey(got, info) {
		t.Errorf("no %s... series", info)
	}
}

// scrapeUntil scrapes url until the series named key is there (the
// pipeline follows the tap asynchronously) or ctx ends, and returns the
// samples by series.
func scrapeUntil(ctx context.Context, t *testing.T, url, key string) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := scrape(ctx, url)
		if err != nil {
			t.Fatalf("scraping %s: %v", url, err)
		}
		if _, ok := got[key]; ok {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared at %s; last scrape: %v", key, url, got)
		}
		time.Sleep(20 * time.Millisecond) // polling an external process
	}
}

// scrape reads the Prometheus text format: each sample line as series →
// value.
func scrape(ctx context.Context, url string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return nil, &httpStatusError{resp.Status, string(b)}
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if i < 0 || err != nil {
			return nil, &httpStatusError{"bad sample line", line}
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}

type httpStatusError struct{ status, body string }

func (e *httpStatusError) Error() string { return e.status + ": " + e.body }

func hasPrefixKey(m map[string]float64, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
