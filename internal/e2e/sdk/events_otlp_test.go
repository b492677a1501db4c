package sdk_test

import (
	"context"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// receiver is a real OTLP receiver: the collector's trace and logs services
// over gRPC, and the same over HTTP/protobuf at /v1/traces and /v1/logs.
type receiver struct {
	coltrace.UnimplementedTraceServiceServer
	collogs.UnimplementedLogsServiceServer
	mu    sync.Mutex
	spans []*tracepb.Span
	logs  []*logspb.LogRecord
}

func (r *receiver) Export(_ context.Context, req *coltrace.ExportTraceServiceRequest) (*coltrace.ExportTraceServiceResponse, error) {
	r.addSpans(req)
	return &coltrace.ExportTraceServiceResponse{}, nil
}

func (r *receiver) addSpans(req *coltrace.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			r.spans = append(r.spans, ss.GetSpans()...)
		}
	}
}

func (r *receiver) addLogs(req *collogs.ExportLogsServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rl := range req.GetResourceLogs() {
		for _, sl := range rl.GetScopeLogs() {
			r.logs = append(r.logs, sl.GetLogRecords()...)
		}
	}
}

// logsService adapts the receiver to the logs service (its Export method
// name clashes with the trace service's).
type logsService struct {
	collogs.UnimplementedLogsServiceServer
	r *receiver
}

func (l logsService) Export(_ context.Context, req *collogs.ExportLogsServiceRequest) (*collogs.ExportLogsServiceResponse, error) {
	l.r.addLogs(req)
	return &collogs.ExportLogsServiceResponse{}, nil
}

// serveGRPC starts the receiver on a loopback gRPC listener.
func (r *receiver) serveGRPC(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	coltrace.RegisterTraceServiceServer(s, r)
	collogs.RegisterLogsServiceServer(s, logsService{r: r})
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	return "http://" + ln.Addr().String()
}

// serveHTTP starts the receiver on a loopback HTTP listener.
func (r *receiver) serveHTTP(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, req *http.Request) {
		var in coltrace.ExportTraceServiceRequest
		if !readProto(w, req, &in) {
			return
		}
		r.addSpans(&in)
		writeProto(w, &coltrace.ExportTraceServiceResponse{})
	})
	mux.HandleFunc("POST /v1/logs", func(w http.ResponseWriter, req *http.Request) {
		var in collogs.ExportLogsServiceRequest
		if !readProto(w, req, &in) {
			return
		}
		r.addLogs(&in)
		writeProto(w, &collogs.ExportLogsServiceResponse{})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func readProto(w http.ResponseWriter, req *http.Request, m proto.Message) bool {
	b, err := io.ReadAll(req.Body)
	if err == nil {
		err = proto.Unmarshal(b, m)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

func writeProto(w http.ResponseWriter, m proto.Message) {
	b, _ := proto.Marshal(m)
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(b)
}

func attrs(kvs []*common.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		v := kv.GetValue()
		switch {
		case v.GetArrayValue() != nil:
			s := ""
			for i, e := range v.GetArrayValue().GetValues() {
				if i > 0 {
					s += ","
				}
				s += e.GetStringValue()
			}
			out[kv.GetKey()] = s
		case v.GetStringValue() != "":
			out[kv.GetKey()] = v.GetStringValue()
		default:
			out[kv.GetKey()] = v.String()
		}
	}
	return out
}

// Trace context the test client sends in the root request's _meta.
const (
	parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentSpan  = "00f067aa0ba902b7"
)

// TestOTLP runs a 2026-07-28 go-sdk client and server through mcptrail
// --otlp-endpoint, once per protocol, against a real OTLP receiver, and
// checks the spans (names, MCP semantic-convention attributes, the parent
// from _meta.traceparent), their elicitation span events and the
// elicitation log records.
func TestOTLP(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{"http/protobuf", "grpc"} {
		t.Run(filepath.Base(proto), func(t *testing.T) {
			t.Parallel()
			r := &receiver{}
			endpoint := r.serveHTTP(t)
			if proto == "grpc" {
				endpoint = r.serveGRPC(t)
			}
			runOTLPSession(t, endpoint, proto)
			checkOTLP(t, r)
		})
	}
}

func runOTLPSession(t *testing.T, endpoint, protocol string) {
	dir := t.TempDir()
	runOTLPSessionArgs(t, dir, "--capture", filepath.Join(dir, "session.jsonl"),
		"--otlp-endpoint", endpoint, "--otlp-protocol", protocol, "--otlp-header", "x-team=blue")
}

// runOTLPSessionArgs runs the OTLP tests' session (two confirm calls, one
// accepted and one declined, with a _meta trace context) through mcptrail
// started with args, in MCPTRAIL_HOME dir.
func runOTLPSessionArgs(t *testing.T, dir string, args ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bins.mcptrail, append(args, "--", bins.sdkserver)...)
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
	ans.Queue("accept", "decline")
	meta := mcp.Meta{"traceparent": "00-" + parentTrace + "-" + parentSpan + "-01", "tracestate": "vendor=1"}
	for range 2 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", Meta: meta}); err != nil {
			t.Fatalf("calling confirm: %v\n%s", err, stderr.Bytes())
		}
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v\n%s", err, stderr.Bytes())
	}
}

func checkOTLP(t *testing.T, r *receiver) {
	r.mu.Lock()
	defer r.mu.Unlock()
	type spanView struct {
		Name, Kind, Trace, Parent                                     string
		Method, Version, Tool, Op, ErrType, Status, Transport, Rounds string
		Events                                                        []string
	}
	var got []spanView
	for _, s := range r.spans {
		if s.GetName() != "tools/call confirm" {
			continue
		}
		a := attrs(s.GetAttributes())
		v := spanView{
			Name: s.GetName(), Kind: s.GetKind().String(),
			Trace: hex.EncodeToString(s.GetTraceId()), Parent: hex.EncodeToString(s.GetParentSpanId()),
			Method: a["mcp.method.name"], Version: a["mcp.protocol.version"], Tool: a["gen_ai.tool.name"],
			Op: a["gen_ai.operation.name"], ErrType: a["error.type"], Status: s.GetStatus().GetCode().String(),
			Transport: a["network.transport"], Rounds: a["mcptrail.rounds"],
		}
		if a["jsonrpc.request.id"] == "" {
			t.Errorf("span %s has no jsonrpc.request.id", s.GetName())
		}
		for _, e := range s.GetEvents() {
			ea := attrs(e.GetAttributes())
			v.Events = append(v.Events, e.GetName()+" "+ea["mcptrail.elicitation.mode"]+" "+ea["mcptrail.elicitation.fields"]+" "+ea["mcptrail.elicitation.action"])
		}
		got = append(got, v)
	}
	ok := spanView{Name: "tools/call confirm", Kind: "SPAN_KIND_CLIENT", Trace: parentTrace, Parent: parentSpan,
		Method: "tools/call", Version: "2026-07-28", Tool: "confirm", Op: "execute_tool", Status: "STATUS_CODE_UNSET",
		Transport: "pipe", Rounds: "int_value:2",
		Events: []string{"mcptrail.elicitation.create form ok ", "mcptrail.elicitation.response form ok accept"}}
	failed := ok
	failed.ErrType, failed.Status = "tool_error", "STATUS_CODE_ERROR"
	failed.Events = []string{"mcptrail.elicitation.create form ok ", "mcptrail.elicitation.response form ok decline"}
	if diff := cmp.Diff([]spanView{ok, failed}, got); diff != "" {
		t.Errorf("tools/call spans (-want +got):\n%s", diff)
	}
	var logs []string
	for _, l := range r.logs {
		a := attrs(l.GetAttributes())
		logs = append(logs, l.GetEventName()+" "+a["mcptrail.elicitation.status"]+" "+a["mcptrail.elicitation.root.target"]+" "+a["mcptrail.elicitation.message"])
	}
	wantLogs := []string{
		"mcptrail.elicitation.create asked confirm Proceed?", "mcptrail.elicitation.response answered confirm Proceed?",
		"mcptrail.elicitation.create asked confirm Proceed?", "mcptrail.elicitation.response answered confirm Proceed?",
	}
	if diff := cmp.Diff(wantLogs, logs); diff != "" {
		t.Errorf("elicitation log records (-want +got):\n%s", diff)
	}
}
