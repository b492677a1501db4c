package http_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestHTTPEvents runs `mcptrail http --events-file` against the status
// target: calls answered 401 and 403 (no JSON-RPC answer) and 200 each
// produce their mcp:tools/call event, the failed ones with the HTTP status
// as their error; the live stream is what `export -T events` derives from
// the capture; and the capture notes the pipeline's counters.
func TestHTTPEvents(t *testing.T) {
	t.Parallel()
	ts := statusTarget(t)
	defer ts.Close()
	evPath := filepath.Join(t.TempDir(), "events.jsonl")
	// The target answers the foreign origin's call 403 itself: the tap lets
	// that origin through, as TestStatusFrames does.
	tp := startTap(t, ts.URL+"/mcp", "--events-file", evPath, "--allow-origin", foreignOrigin)
	post(t, tp.url("/mcp"), toolCallBody, modernHeaders("Authorization", "Bearer wrong-"+secret))
	post(t, tp.url("/mcp"), strings.Replace(toolCallBody, `"id":7`, `"id":8`, 1),
		modernHeaders("Authorization", "Bearer "+secret, "Origin", foreignOrigin))
	post(t, tp.url("/mcp"), strings.Replace(toolCallBody, `"id":7`, `"id":9`, 1), modernHeaders("Authorization", "Bearer "+secret))
	tp.stop(t)

	live, err := os.ReadFile(evPath)
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Type, ID, Status, Tool string
		IsError                bool
		Code                   int64
		ErrType                string
	}
	var got []view
	for _, line := range strings.Split(strings.TrimSpace(string(live)), "\n") {
		var e struct {
			EventType    string         `json:"event_type"`
			RequestID    jsontext.Value `json:"request_id"`
			Status       string         `json:"status"`
			ResourceName string         `json:"resource_name"`
			IsError      bool           `json:"is_error"`
			Error        *struct {
				Code int64  `json:"code"`
				Type string `json:"type"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		v := view{Type: e.EventType, ID: string(e.RequestID), Status: e.Status, Tool: e.ResourceName, IsError: e.IsError}
		if e.Error != nil {
			v.Code, v.ErrType = e.Error.Code, e.Error.Type
		}
		got = append(got, v)
	}
	want := []view{
		{"mcp:tools/call", "7", "http-error", "confirm", true, 401, "401"},
		{"mcp:tools/call", "8", "http-error", "confirm", true, 403, "403"},
		{"mcp:tools/call", "9", "ok", "confirm", false, 0, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s\n%s", diff, live)
	}
	offline, err := exec.Command(bins.mcptrail, "export", "-T", "events", tp.capture).Output()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(offline), string(live)); diff != "" {
		t.Errorf("live events (+) differ from the export's (-):\n%s", diff)
	}
	note := ""
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeNote && r.Note == "events" {
			note = r.Text
		}
	}
	if !strings.Contains(note, "0 capture records dropped") {
		t.Errorf("events note %q, want the pipeline's counters", note)
	}
}
