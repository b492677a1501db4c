package textexport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestHTTPStatusFrameChallenge: an answer's status frame names its
// WWW-Authenticate challenge and the start of its body, JSON or text.
func TestHTTPStatusFrameChallenge(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	challenge := map[string]string{"WWW-Authenticate": "Bearer resource_metadata=\"m\"\x1b[2J"}
	var out bytes.Buffer
	w := New(&out, &capture.Record{SessionID: "s1", Label: "http", Time: t0}, nil)
	w.Frame(&store.Frame{Seq: 1, Time: t0, Dir: capture.S2C, Kind: store.KindHTTPStatus, Size: 24, Call: 0,
		Record: &capture.Record{Msg: jsontext.Value(`{"error":"unauthorized"}`),
			HTTP: &capture.HTTP{Exchange: "x1", Method: "POST", Path: "/mcp", Status: 401, Headers: challenge}}})
	w.Frame(&store.Frame{Seq: 2, Time: t0, Dir: capture.S2C, Kind: store.KindHTTPStatus, Size: 60, Call: 1,
		Record: &capture.Record{Text: strings.Repeat("x", 60), HTTP: &capture.HTTP{Exchange: "x2", Method: "POST", Path: "/mcp", Status: 403}}})
	if err := w.Finish(&store.Snapshot{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "  #") {
			got = append(got, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{
		`#1 +0ms s2c http-status - 24 call 0 HTTP 401 WWW-Authenticate: Bearer resource_metadata="m"\x1b[2J "{\"error\":\"unauthorized\"}"`,
		`#2 +0ms s2c http-status - 60 call 1 HTTP 403 "` + strings.Repeat("x", 48) + `"...`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frame lines (-want +got):\n%s", diff)
	}
}
