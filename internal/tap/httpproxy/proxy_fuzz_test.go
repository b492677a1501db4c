package httpproxy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/http/httpguts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// FuzzProxyExchange sends a request of any body, header value and path
// through the reverse proxy, or the forward proxy, to a server that
// answers with any body as JSON or as an event stream: both sides get the
// other's bytes unchanged, and the capture stays whole (it closes without
// an error and reads back with no damage).
func FuzzProxyExchange(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), "tools/call", "mcp", []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), false, false)
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"x"}`), "a\xffb", "m\xffcp", []byte("data: {}\n\n"), true, true)
	f.Add([]byte("\xff\xfe{"), "", "", []byte("\uFEFFdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\r"), true, false)
	f.Fuzz(func(t *testing.T, reqBody []byte, header, path string, respBody []byte, sse, forward bool) {
		if !httpguts.ValidHeaderFieldValue(header) {
			t.Skip("net/http refuses to send this header value")
		}
		target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got, _ := io.ReadAll(r.Body)
			sum := sha256.Sum256(got)
			w.Header().Set("X-Body-Sum", hex.EncodeToString(sum[:]))
			w.Header().Set("X-Param", r.Header.Get("Mcp-Param-Fuzz"))
			if sse {
				w.Header().Set("Content-Type", "text/event-stream")
			} else {
				w.Header().Set("Content-Type", "application/json")
			}
			_, _ = w.Write(respBody)
		}))
		defer target.Close()
		var (
			base = target.URL
			buf  *syncBuf
			c    = http.DefaultClient
			stop func()
		)
		if forward {
			stop, buf, c = forwardProxy(t, &ForwardOptions{}, nil)
		} else {
			var p *Proxy
			var front *httptest.Server
			p, front, buf = proxyTo(t, target.URL)
			base = front.URL
			stop = func() {
				front.Close()
				if err := p.Close(); err != nil {
					t.Fatalf("capture: %v", err)
				}
			}
		}
		req, err := http.NewRequest(http.MethodPost, base+"/"+url.PathEscape(path), bytes.NewReader(reqBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Param-Fuzz", header)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		stop()
		sum := sha256.Sum256(reqBody)
		if resp.Header.Get("X-Body-Sum") != hex.EncodeToString(sum[:]) {
			t.Errorf("the server did not get the request body as sent")
		}
		// HTTP drops the white space around a field value on any hop.
		if want := strings.Trim(header, " \t"); resp.Header.Get("X-Param") != want {
			t.Errorf("the server got header %q, want %q", resp.Header.Get("X-Param"), want)
		}
		if !bytes.Equal(got, respBody) {
			t.Errorf("the client got %q, want %q", got, respBody)
		}
		_, recs, dmg, err := capture.ReadAll(bytes.NewReader(buf.b.Bytes()))
		if err != nil || dmg.String() != "" {
			t.Fatalf("capture reads back with %v, damage %q:\n%s", err, dmg.String(), buf.b.Bytes())
		}
		if len(recs) == 0 || recs[len(recs)-1].Type != capture.TypeEnd {
			t.Errorf("capture has no end record:\n%s", buf.b.Bytes())
		}
	})
}
