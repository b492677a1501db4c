package htmlexport

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// http401 is an HTTP capture: a tools/call answered 401 with a
// WWW-Authenticate challenge and a JSON body that is not JSON-RPC, then
// one answered 404 with a text body.
const http401 = `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"0123456789abcdef","transport":"http","label":"oauth","target":"http://127.0.0.1:18810/mcp"}
{"type":"frame","seq":1,"time":"2026-07-28T09:00:00.001Z","dir":"c2s","size":60,"msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}},"http":{"exchange":"x1","method":"POST","path":"/mcp"}}
{"type":"frame","seq":2,"time":"2026-07-28T09:00:00.004Z","dir":"s2c","size":24,"msg":{"error":"unauthorized"},"http":{"exchange":"x1","method":"POST","path":"/mcp","status":401,"headers":{"Content-Type":"application/json","WWW-Authenticate":"Bearer resource_metadata=\"m\""}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:00:00.005Z","dir":"c2s","size":60,"msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}},"http":{"exchange":"x2","method":"POST","path":"/mcp"}}
{"type":"frame","seq":4,"time":"2026-07-28T09:00:00.006Z","dir":"s2c","size":18,"text":"404 page not found","http":{"exchange":"x2","method":"POST","path":"/mcp","status":404}}
{"type":"end","time":"2026-07-28T09:00:00.030Z"}
`

// TestHTTPErrorAnswerShown: a call an HTTP error status ended shows as
// http-error with the status and challenge as its error, and its details
// show the status frame's body (a text body marked as text).
func TestHTTPErrorAnswerShown(t *testing.T) {
	t.Parallel()
	page, _ := render(t, []byte(http401))
	blocks := dataBlocks(t, page)
	var data struct {
		Calls [][]any  `json:"calls"`
		Names []string `json:"names"`
	}
	if err := jsonUnmarshal(blocks["report-data"], &data); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(blocks["frames-data"], "\n")
	var got []string
	for _, c := range data.Calls {
		status := data.Names[int(c[3].(float64))]
		got = append(got, status+" | "+c[10].(string)+" | "+strings.TrimSuffix(lines[int(c[14].(float64))+1], ","))
	}
	want := []string{
		`http-error | HTTP 401 Unauthorized; WWW-Authenticate: Bearer resource_metadata="m" | [2,"s2c","{\"error\":\"unauthorized\"}"]`,
		`http-error | HTTP 404 Not Found | [4,"s2c","404 page not found",2]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls: status | error | answer frame (-want +got):\n%s", diff)
	}
}
