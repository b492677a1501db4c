//lint:file-ignore SA1019 the test drives mcp-go's per-request log level (deprecated in 2026-07-28) on purpose

package mcpgopeer_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/mcpgopeer"
)

// TestWorkNotificationsReachTheClient calls work many times, client
// straight to server over Streamable HTTP at 2026-07-28, and requires the
// log message and both progress notifications before every result. Behind
// mcp-go's plain handler a call now and then loses one of them
// (see NewHTTPHandler); the end-to-end tests through mcptrail depend on
// all of them arriving.
func TestWorkNotificationsReachTheClient(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(mcpgopeer.NewHTTPHandler())
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := transport.NewStreamableHTTP(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_PROTOCOL_VERSION))
	var mu sync.Mutex
	var got []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		mu.Lock()
		got = append(got, n.Method)
		mu.Unlock()
	})
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpgopeer-test", Version: "0.1.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelInfo}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"notifications/message", "notifications/progress", "notifications/progress"}
	for i := range 200 {
		mu.Lock()
		got = nil
		mu.Unlock()
		var req mcp.CallToolRequest
		req.Params.Name = "work"
		req.Params.Meta = &mcp.Meta{ProgressToken: "work-1"}
		if _, err := c.CallTool(ctx, req); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		mu.Lock()
		diff := cmp.Diff(want, got)
		mu.Unlock()
		if diff != "" {
			t.Fatalf("call %d: notifications before the result (-want +got):\n%s", i, diff)
		}
	}
}
