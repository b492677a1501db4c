package capture

import (
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
)

// FuzzEnvelope: appendEnvelope writes the bytes json.Marshal with
// recordOptions writes for the same envelope, whatever its strings hold
// (invalid UTF-8, quotes, control characters), and they read back.
func FuzzEnvelope(f *testing.F) {
	f.Add("x1", "POST", "/mcp", 200, "Mcp-Method", "tools/call", "Accept", "*/*", "", "")
	f.Add("", "", "", 0, "", "", "", "", "https://example.com/mcp?a=1", "")
	f.Add("x2", "GET", "/\xff", 404, "Mcp-Param-X", "a\xffb", "Z\"", "\x00<>&\u2028", "", "end\xffpoint")
	f.Add("x3", "GET", "/sse", 200, "Content-Type", "text/event-stream", "", "", "", "endpoint")
	f.Fuzz(func(t *testing.T, exchange, method, path string, status int, k1, v1, k2, v2, url, event string) {
		env := &HTTP{Exchange: exchange, Method: method, Path: path, Status: status, URL: url, Event: event}
		for k, v := range map[string]string{k1: v1, k2: v2} {
			// A header name is an HTTP token (net/http refuses others), so
			// never invalid UTF-8 that two names could share as U+FFFD.
			if k != "" && utf8.ValidString(k) {
				if env.Headers == nil {
					env.Headers = map[string]string{}
				}
				env.Headers[k] = v
			}
		}
		want, err := json.Marshal(env, recordOptions)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		got := appendEnvelope(nil, env)
		if string(got) != `,"http":`+string(want) {
			t.Fatalf("appendEnvelope\n got %s\nwant ,\"http\":%s", got, want)
		}
		var back HTTP
		if err := json.Unmarshal(want, &back); err != nil {
			t.Fatalf("the envelope does not read back: %v", err)
		}
	})
}
