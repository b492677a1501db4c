package httpproxy

import (
	"net/http"
	"testing"
)

func TestLooksJSONRPC(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:  true,
		`{"id":1,"method":"ping"}`:                  true,
		`[{"jsonrpc":"2.0","method":"x"}]`:          true,
		`{"params":{"a":1},"jsonrpc":"2.0","id":1`:  true, // cut short, the member seen
		`{"redirect_uris":["x"],"client_name":"c"}`: false,
		`grant_type=authorization_code&code=x`:      false,
		`{"a":{"jsonrpc":"2.0"}}`:                   false,
		``:                                          false,
	} {
		if got := looksJSONRPC([]byte(body)); got != want {
			t.Errorf("looksJSONRPC(%s) = %v, want %v", body, got, want)
		}
	}
}

func TestStartMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method string
		header map[string]string
		body   bool
		want   mode
	}{
		{"GET", map[string]string{"Accept": "text/event-stream"}, false, modeMCP},
		{"GET", map[string]string{"Accept": "application/json", "MCP-Protocol-Version": "2025-11-25"}, false, modeExchange},
		{"DELETE", map[string]string{"Mcp-Session-Id": "s"}, false, modeMCP},
		{"POST", map[string]string{"Mcp-Session-Id": "s"}, true, modeMCP},
		{"POST", map[string]string{"Content-Type": "application/json"}, true, modeUndecided},
		{"GET", nil, false, modeExchange},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest(tt.method, "http://h/x", nil)
		for k, v := range tt.header {
			r.Header.Set(k, v)
		}
		if got := startMode(r, tt.body); got != tt.want {
			t.Errorf("%s %v body %v: mode %d, want %d", tt.method, tt.header, tt.body, got, tt.want)
		}
	}
}
