package textexport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestHTTPStatusFrames: an HTTP status frame shows as kind http-status
// with what it stands for: the status of an answer, the method and path
// of a request without a message.
func TestHTTPStatusFrames(t *testing.T) {
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	w := New(&out, &capture.Record{SessionID: "s1", Label: "http", Time: t0}, nil)
	w.Frame(&store.Frame{Seq: 1, Time: t0, Dir: capture.C2S, Kind: store.KindHTTPStatus, Call: -1,
		Record: &capture.Record{HTTP: &capture.HTTP{Exchange: "x1", Method: "GET", Path: "/mcp"}}})
	w.Frame(&store.Frame{Seq: 2, Time: t0, Dir: capture.S2C, Kind: store.KindHTTPStatus, Call: 0,
		Record: &capture.Record{HTTP: &capture.HTTP{Exchange: "x1", Method: "GET", Path: "/mcp", Status: 405}}})
	if err := w.Finish(&store.Snapshot{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	var got []string
	for _, l := range lines {
		if strings.HasPrefix(l, "  #") {
			got = append(got, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{
		"#1 +0ms c2s http-status - 0 HTTP GET /mcp",
		"#2 +0ms s2c http-status - 0 call 0 HTTP 405",
	}
	if len(got) != len(want) {
		t.Fatalf("frame lines %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i, got[i], want[i])
		}
	}
}
