package mock_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMockRefusesWebPages: `mcptrail mock --http` refuses what `mcptrail
// http` refuses, so no web page can read the recorded answers: a
// cross-site text/plain POST and a DNS-rebinding Host (with or without the
// page's own Origin) get 403, a POST that is not JSON 415, and none gets
// the recorded initialize result; an SDK-style client, the MCP Inspector
// on localhost and an --allow-origin page do.
func TestMockRefusesWebPages(t *testing.T) {
	t.Parallel()
	dir, path := writeHostile(t)
	m := startListener(t, dir, "mock", "--http", "127.0.0.1:0", "--allow-origin", "https://app.example.com", path)
	port := m.addr[strings.LastIndexByte(m.addr, ':')+1:]
	type send struct {
		name, host, origin, ct string
		want                   int
	}
	cases := []send{
		{"cross-site text/plain POST", "", "https://evil.example", "text/plain;charset=UTF-8", 403},
		{"rebinding Host", "evil.example:" + port, "", "application/json", 403},
		{"rebinding Host, same-origin page", "evil.example:" + port, "http://evil.example:" + port, "application/json", 403},
		{"text/plain POST, Origin stripped", "", "", "text/plain", 415},
		{"SDK client", "", "", "application/json", 200},
		{"MCP Inspector on localhost", "", "http://localhost:6274", "application/json", 200},
		{"--allow-origin page", "", "https://app.example.com", "application/json", 200},
	}
	var got, want []int
	for _, c := range cases {
		req, err := http.NewRequest(http.MethodPost, "http://"+m.addr+"/mcp",
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		req.Header.Set("Content-Type", c.ct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: reading the answer: %v", c.name, err)
		}
		if answered := strings.Contains(string(body), `"serverInfo"`); answered != (c.want == 200) {
			t.Errorf("%s: answered from the recording = %v: %s", c.name, answered, body)
		}
		got, want = append(got, resp.StatusCode), append(want, c.want)
	}
	m.stop(t)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
}
