package corpus

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcptrail/mcptrail/internal/transcript"
)

// hexID matches an OTLP/JSON id member; protobuf's JSON mapping wants the
// bytes in base64, so the test turns them back before protojson decodes.
var hexID = regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"([0-9a-f]*)"`)

func otlpLineToProtoJSON(t *testing.T, line string) []byte {
	t.Helper()
	return []byte(hexID.ReplaceAllStringFunc(line, func(m string) string {
		sub := hexID.FindStringSubmatch(m)
		b, err := hex.DecodeString(sub[2])
		if err != nil || (len(b) != 16 && len(b) != 8) {
			t.Errorf("%s is not a hex trace or span id", m)
		}
		return fmt.Sprintf("%q:%q", sub[1], base64.StdEncoding.EncodeToString(b))
	}))
}

// TestExportOTLP exports the elicit-seed capture with -T otlp and decodes
// the file back into the OTLP proto types: a traces line whose spans are
// the operation events (named "{method} {target}", with the MCP semantic
// convention attributes and their elicitations as span events) and a logs
// line with one record per elicitation event. The export is reproducible.
func TestExportOTLP(t *testing.T) {
	t.Parallel()
	const name = "elicit-seed"
	path := filepath.Join(transcriptDir, name+".transcript.jsonl")
	tr, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(t.TempDir(), "capture.jsonl")
	runThroughTap(t, tr, path, raw, name)
	out, err := exec.Command(testBinary, "export", "-T", "otlp", raw).Output()
	if err != nil {
		t.Fatal(err)
	}
	again, err := exec.Command(testBinary, "export", "-T", "otlp", raw).Output()
	if err != nil || !bytes.Equal(out, again) {
		t.Errorf("two exports of one capture differ (err %v):\n%s", err, cmp.Diff(string(out), string(again)))
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want a traces line and a logs line:\n%s", len(lines), out)
	}
	var traces coltrace.ExportTraceServiceRequest
	if err := protojson.Unmarshal(otlpLineToProtoJSON(t, lines[0]), &traces); err != nil {
		t.Fatalf("traces line: %v", err)
	}
	var logs collogs.ExportLogsServiceRequest
	if err := protojson.Unmarshal(otlpLineToProtoJSON(t, lines[1]), &logs); err != nil {
		t.Fatalf("logs line: %v", err)
	}
	evOut, err := exec.Command(testBinary, "export", "-T", "events", raw).Output()
	if err != nil {
		t.Fatal(err)
	}
	var wantSpans, wantLogs []string
	for _, l := range strings.Split(strings.TrimSpace(string(evOut)), "\n") {
		var e struct {
			EventType    string `json:"event_type"`
			Method       string `json:"method"`
			ResourceName string `json:"resource_name"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		switch e.EventType {
		case "mcp:elicitation/create":
			wantLogs = append(wantLogs, "mcptrail.elicitation.create")
		case "mcp:elicitation/response":
			wantLogs = append(wantLogs, "mcptrail.elicitation.response")
		default:
			wantSpans = append(wantSpans, strings.TrimSpace(e.Method+" "+e.ResourceName))
		}
	}
	checkOTLPSpans(t, &traces, wantSpans)
	var gotLogs []string
	for _, rl := range logs.GetResourceLogs() {
		for _, sl := range rl.GetScopeLogs() {
			for _, r := range sl.GetLogRecords() {
				gotLogs = append(gotLogs, r.GetEventName())
				if a := otlpAttrs(r.GetAttributes()); a["event.name"] != r.GetEventName() || a["mcptrail.elicitation.mode"] == "" {
					t.Errorf("log record %s attributes %v", r.GetEventName(), a)
				}
			}
		}
	}
	if diff := cmp.Diff(wantLogs, gotLogs); diff != "" {
		t.Errorf("log records (-events +otlp):\n%s", diff)
	}
}

func checkOTLPSpans(t *testing.T, traces *coltrace.ExportTraceServiceRequest, want []string) {
	t.Helper()
	type view struct{ Name, Method, Version, Tool, Op, Rounds, Kind, Events string }
	var got []string
	var create view
	for _, rs := range traces.GetResourceSpans() {
		if a := otlpAttrs(rs.GetResource().GetAttributes()); a["service.name"] != "mcptrail" {
			t.Errorf("resource attributes %v, want service.name mcptrail", a)
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				got = append(got, s.GetName())
				if len(s.GetTraceId()) != 16 || len(s.GetSpanId()) != 8 {
					t.Errorf("span %s ids %x %x", s.GetName(), s.GetTraceId(), s.GetSpanId())
				}
				if s.GetName() != "tools/call create_account" {
					continue
				}
				a := otlpAttrs(s.GetAttributes())
				create = view{s.GetName(), a["mcp.method.name"], a["mcp.protocol.version"], a["gen_ai.tool.name"],
					a["gen_ai.operation.name"], a["mcptrail.rounds"], s.GetKind().String(), ""}
				for _, e := range s.GetEvents() {
					create.Events += e.GetName() + "/" + otlpAttrs(e.GetAttributes())["mcptrail.elicitation.mode"] + " "
				}
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("span names (-events +otlp):\n%s", diff)
	}
	wantCreate := view{"tools/call create_account", "tools/call", "2026-07-28", "create_account", "execute_tool", "2",
		"SPAN_KIND_CLIENT", "mcptrail.elicitation.create/form mcptrail.elicitation.response/form "}
	if diff := cmp.Diff(wantCreate, create); diff != "" {
		t.Errorf("create_account span (-want +got):\n%s", diff)
	}
}

// otlpAttrs flattens attributes to strings (arrays joined with commas).
func otlpAttrs(kvs []*common.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		v := kv.GetValue()
		switch x := v.GetValue().(type) {
		case *common.AnyValue_StringValue:
			out[kv.GetKey()] = x.StringValue
		case *common.AnyValue_IntValue:
			out[kv.GetKey()] = fmt.Sprint(x.IntValue)
		case *common.AnyValue_ArrayValue:
			var parts []string
			for _, e := range x.ArrayValue.GetValues() {
				parts = append(parts, e.GetStringValue())
			}
			out[kv.GetKey()] = strings.Join(parts, ",")
		default:
			out[kv.GetKey()] = v.String()
		}
	}
	return out
}
