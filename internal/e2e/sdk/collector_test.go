package sdk_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// collector is a real OpenTelemetry Collector (tools/otelcol: the OTLP
// receivers and the file exporter at one release) running for one test.
type collector struct {
	grpc, http string // receiver endpoints, host:port
	out        string // the file exporter's JSON lines
	cmd        *exec.Cmd
	stderr     *testbin.Buffer
}

// freePort returns a loopback address nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startCollector runs the collector with an OTLP receiver on both
// protocols and every signal's pipeline ending in the file exporter, and
// waits until its HTTP receiver accepts connections. With a file to read,
// the pipelines also take what the OTLP JSON file receiver reads of it.
func startCollector(t *testing.T, bin string, read ...string) *collector {
	t.Helper()
	dir := t.TempDir()
	c := &collector{grpc: freePort(t), http: freePort(t), out: filepath.Join(dir, "out.jsonl"), stderr: new(testbin.Buffer)}
	fileRecv, receivers := "", "otlp"
	if len(read) > 0 {
		fileRecv = fmt.Sprintf("  otlpjsonfile:\n    include: [%q]\n    start_at: beginning\n    poll_interval: 50ms\n", read[0])
		receivers = "otlp, otlpjsonfile"
	}
	cfg := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %s
      http:
        endpoint: %s
%sexporters:
  file:
    path: %s
    flush_interval: 50ms
service:
  pipelines:
    traces: {receivers: [%[5]s], exporters: [file]}
    logs: {receivers: [%[5]s], exporters: [file]}
    metrics: {receivers: [%[5]s], exporters: [file]}
`, c.grpc, c.http, fileRecv, c.out, receivers)
	conf := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c.cmd = exec.Command(bin, "--config", "file:"+conf)
	c.cmd.Stderr, c.cmd.Stdout = c.stderr, c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.cmd.Process.Kill(); _ = c.cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.Dial("tcp", c.http)
		if err == nil {
			conn.Close()
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector never listened on %s:\n%s", c.http, c.stderr.Bytes())
		}
		time.Sleep(20 * time.Millisecond) // polling an external process
	}
}

// stop ends the collector cleanly, so the file exporter writes what it
// holds, and returns what it received.
func (c *collector) stop(t *testing.T) *received {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("the collector: %v\n%s", err, c.stderr.Bytes())
	}
	b, err := os.ReadFile(c.out)
	if err != nil {
		t.Fatalf("reading the collector's output: %v\n%s", err, c.stderr.Bytes())
	}
	r, err := parseReceived(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// received is what the collector's file exporter wrote, in the OTLP/JSON
// mapping: one export request per line.
type received struct {
	traces  []*coltrace.ExportTraceServiceRequest
	logs    []*collogs.ExportLogsServiceRequest
	metrics []*colmetrics.ExportMetricsServiceRequest
}

// hexIDs are the OTLP/JSON ids, which are hex where the protobuf JSON
// mapping has base64.
var hexIDs = regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"([0-9a-f]*)"`)

func hexToBase64(m []byte) []byte {
	sub := hexIDs.FindSubmatch(m)
	raw, err := hex.DecodeString(string(sub[2]))
	if err != nil {
		return m
	}
	return []byte(`"` + string(sub[1]) + `":"` + base64.StdEncoding.EncodeToString(raw) + `"`)
}

func parseReceived(b []byte) (*received, error) {
	r := &received{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	opts := protojson.UnmarshalOptions{DiscardUnknown: true}
	for sc.Scan() {
		line := hexIDs.ReplaceAllFunc(sc.Bytes(), hexToBase64)
		var err error
		switch {
		case bytes.HasPrefix(line, []byte(`{"resourceSpans"`)):
			m := &coltrace.ExportTraceServiceRequest{}
			err = opts.Unmarshal(line, m)
			r.traces = append(r.traces, m)
		case bytes.HasPrefix(line, []byte(`{"resourceLogs"`)):
			m := &collogs.ExportLogsServiceRequest{}
			err = opts.Unmarshal(line, m)
			r.logs = append(r.logs, m)
		case bytes.HasPrefix(line, []byte(`{"resourceMetrics"`)):
			m := &colmetrics.ExportMetricsServiceRequest{}
			err = opts.Unmarshal(line, m)
			r.metrics = append(r.metrics, m)
		default:
			err = fmt.Errorf("unexpected line %.80q", line)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the collector's output: %w", err)
		}
	}
	return r, sc.Err()
}

// spans and logs gather the received requests into the test receiver's
// shape, so the live OTLP test's checks apply unchanged.
func (r *received) asReceiver() *receiver {
	out := &receiver{}
	for _, t := range r.traces {
		out.addSpans(t)
	}
	for _, l := range r.logs {
		out.addLogs(l)
	}
	return out
}

// metricPoints sums, per metric and per attribute set (sorted k=v
// pairs), a histogram's count or a sum's value.
func (r *received) metricPoints() map[string]float64 {
	out := map[string]float64{}
	for _, req := range r.metrics {
		for _, rm := range req.GetResourceMetrics() {
			for _, sm := range rm.GetScopeMetrics() {
				for _, m := range sm.GetMetrics() {
					for _, p := range m.GetHistogram().GetDataPoints() {
						out[m.GetName()+" "+m.GetUnit()+" "+attrKey(attrs(p.GetAttributes()))] = float64(p.GetCount())
					}
					for _, p := range m.GetSum().GetDataPoints() {
						out[m.GetName()+" "+m.GetUnit()+" "+attrKey(attrs(p.GetAttributes()))] = float64(p.GetAsInt())
					}
				}
			}
		}
	}
	return out
}

func attrKey(a map[string]string) string {
	var kv []string
	for k, v := range a {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

// TestCollector sends the proxy's live OTLP to a real OpenTelemetry
// Collector, once per protocol, and checks what the collector wrote: the
// tool call spans with their semantic-convention attributes and
// elicitation span events, the elicitation log records, and the metrics
// (the MCP operation duration histograms with their attributes, the
// elicitation counter and the human wait histogram).
func TestCollector(t *testing.T) {
	t.Parallel()
	bin := testbin.Collector(t)
	for _, proto := range []string{"http/protobuf", "grpc"} {
		t.Run(filepath.Base(proto), func(t *testing.T) {
			c := startCollector(t, bin)
			endpoint := "http://" + c.http
			if proto == "grpc" {
				endpoint = "http://" + c.grpc
			}
			runOTLPSession(t, endpoint, proto)
			r := c.stop(t)
			checkOTLP(t, r.asReceiver())
			checkCollectorMetrics(t, r.metricPoints())
		})
	}
}

func checkCollectorMetrics(t *testing.T, got map[string]float64) {
	t.Helper()
	const call = "error.type=%sgen_ai.operation.name=execute_tool,gen_ai.tool.name=confirm,mcp.method.name=tools/call,mcp.protocol.version=2026-07-28,network.transport=pipe"
	ok := strings.Replace(call, "error.type=%s", "", 1)
	failed := strings.Replace(call, "%s", "tool_error,", 1)
	want := map[string]float64{
		"mcp.client.operation.duration s " + ok:     1,
		"mcp.client.operation.duration s " + failed: 1,
		"mcp.server.operation.duration s " + ok:     1,
		"mcp.server.operation.duration s " + failed: 1,
		"mcptrail.elicitation.count {elicitation} gen_ai.tool.name=confirm,mcptrail.elicitation.action=accept,mcptrail.elicitation.mode=form":    1,
		"mcptrail.elicitation.count {elicitation} gen_ai.tool.name=confirm,mcptrail.elicitation.action=decline,mcptrail.elicitation.mode=form":   1,
		"mcptrail.elicitation.human_wait.duration s gen_ai.tool.name=confirm,mcptrail.elicitation.action=accept,mcptrail.elicitation.mode=form":  1,
		"mcptrail.elicitation.human_wait.duration s gen_ai.tool.name=confirm,mcptrail.elicitation.action=decline,mcptrail.elicitation.mode=form": 1,
	}
	picked := map[string]float64{}
	for k, v := range got {
		if strings.Contains(k, "tools/call") || strings.HasPrefix(k, "mcptrail.elicitation") {
			picked[k] = v
		}
	}
	if diff := cmp.Diff(want, picked); diff != "" {
		t.Errorf("metrics at the collector, data point counts (-want +got):\n%s", diff)
	}
}

// TestCollectorReadsExport checks that `mcptrail export -T otlp` is
// OTLP/JSON a real collector reads: the collector's OTLP JSON file
// receiver reads the export's file, and its file exporter writes back the
// same spans and log records the live export sent.
func TestCollectorReadsExport(t *testing.T) {
	t.Parallel()
	bin := testbin.Collector(t)
	// A session recorded with no live sink, then exported to a file.
	export := filepath.Join(t.TempDir(), "export.otlp.jsonl")
	var lines int
	runOTLPSessionCapture(t, func(capture string) {
		out, err := exec.Command(bins.mcptrail, "export", "-T", "otlp", capture).Output()
		if err != nil {
			t.Fatalf("export -T otlp: %v", err)
		}
		lines = bytes.Count(out, []byte("\n"))
		if err := os.WriteFile(export, out, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	c := startCollector(t, bin, export)
	// One request written per line read: wait until every line is out.
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(c.out)
		if n := bytes.Count(b, []byte("\n")); n >= lines {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector wrote %d of the export's %d lines:\n%s", bytes.Count(b, []byte("\n")), lines, c.stderr.Bytes())
		}
		time.Sleep(50 * time.Millisecond) // polling an external process
	}
	r := c.stop(t)
	checkOTLP(t, r.asReceiver())
}

// runOTLPSessionCapture runs the live OTLP test's session with no sink
// and hands its capture to f.
func runOTLPSessionCapture(t *testing.T, f func(capture string)) {
	dir := t.TempDir()
	capture := filepath.Join(dir, "session.jsonl")
	runOTLPSessionArgs(t, dir, "--capture", capture)
	f(capture)
}
