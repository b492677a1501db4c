package http_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// cardServer serves a server card at /mcp/server-card, an AI Catalog with
// the same card inline, and a 2026-07-28 server/discover whose serverInfo
// version and supportedVersions contradict the card.
func cardServer(t *testing.T) *httptest.Server {
	const card = `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"com.example/weather",` +
		`"version":"2.0.0","description":"Weather","remotes":[{"type":"streamable-http","url":"https://weather.example.com/mcp","supportedProtocolVersions":["2025-11-25"]}]}`
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/mcp/server-card":
			w.Header().Set("Content-Type", "application/mcp-server-card+json")
			io.WriteString(w, card)
		case "/.well-known/ai-catalog.json":
			w.Header().Set("Content-Type", "application/ai-catalog+json")
			io.WriteString(w, `{"specVersion":"1.0","entries":[{"identifier":"urn:air:example:weather","type":"application/mcp-server-card+json","data":`+card+`}]}`)
		case "/mcp":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},`+
				`"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"com.example/weather","version":"2.1.0"}}}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// fetchCardsAndDiscover plays what a discovering client does: the AI
// Catalog, the card, then server/discover, all with hc against base.
func fetchCardsAndDiscover(t *testing.T, hc *http.Client, base string) {
	t.Helper()
	for _, p := range []string{"/.well-known/ai-catalog.json", "/mcp/server-card"} {
		req, _ := http.NewRequest(http.MethodGet, base+p, nil)
		req.Header.Set("Accept", "application/mcp-server-card+json, application/ai-catalog+json")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", p, resp.Status)
		}
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "server/discover")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// TestServerCardMismatch: through the reverse and the forward proxy, the
// AI Catalog and the server card are exchange records with their bodies,
// and the export flags each card (the catalog's inline one and the
// hosted one) twice: its version against serverInfo, its protocol
// versions against server/discover's supportedVersions.
func TestServerCardMismatch(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"reverse", "forward"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ts := cardServer(t)
			var tp *tap
			hc, base := http.DefaultClient, ts.URL
			if mode == "reverse" {
				tp = startTap(t, ts.URL+"/mcp")
				base = "http://" + tp.addr
			} else {
				tp = startForward(t)
				proxy, _ := url.Parse("http://" + tp.addr)
				hc = &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
			}
			fetchCardsAndDiscover(t, hc, base)
			tp.stop(t)
			docs := 0
			for _, r := range tp.records(t) {
				if r.Type == capture.TypeExchange && strings.Contains(r.Exchange.RespBody, `"com.example/weather"`) {
					docs++
				}
			}
			if docs != 2 {
				t.Errorf("%d exchange records hold a card, want the catalog and the card", docs)
			}
			n := 0
			for _, id := range exportFindings(t, runExport(t, tp.capture)) {
				if id == "server-card-mismatch" {
					n++
				}
			}
			if n != 4 {
				t.Errorf("%d server-card-mismatch findings, want 4 (version and protocol versions, for each of the two cards)", n)
			}
		})
	}
}
