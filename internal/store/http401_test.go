package store

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHTTPErrorJSONNotRPC: an error status whose body is JSON but not
// JSON-RPC (no "jsonrpc" member, as an OAuth server's
// {"error":"unauthorized"}) is a status frame that ends its call with
// http-error and the status, not a malformed JSON-RPC error of code 0; a
// JSON-RPC error on an error status still answers as one.
func TestHTTPErrorJSONNotRPC(t *testing.T) {
	t.Parallel()
	challenge := map[string]string{"Content-Type": "application/json", "WWW-Authenticate": `Bearer resource_metadata="https://rs.example/.well-known/oauth-protected-resource/mcp"`}
	tests := []struct {
		name, body string
		status     int
		want       string // call status, error code, frame kind
	}{
		{"oauth error object", `{"error":"unauthorized"}`, 401, "http-error 401 http-status"},
		{"oauth error with description", `{"error":"invalid_token","error_description":"expired"}`, 401, "http-error 401 http-status"},
		{"a JSON string", `"forbidden"`, 403, "http-error 403 http-status"},
		{"an error object of another shape", `{"error":{"code":-32001,"message":"no"}}`, 401, "http-error 401 http-status"},
		{"JSON-RPC error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no"}}`, 401, "error -32001 error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var kinds []Kind
			snap := loadBytes(t, captureOf(t, []step{
				post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
				answer("x1", tt.status, tt.body, challenge),
				endRec(),
			}), &Options{OnFrame: func(f *Frame) { kinds = append(kinds, f.Kind) }})
			calls := snap.Calls.Slice()
			if len(calls) != 1 || calls[0].Error == nil || len(kinds) != 2 {
				t.Fatalf("calls %v, frame kinds %v", callLines(calls), kinds)
			}
			got := calls[0].Status + " " + strconv.FormatInt(calls[0].Error.Code, 10) + " " + kinds[1].String()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if snap.Counts.Invalid != 0 {
				t.Errorf("%d invalid frames", snap.Counts.Invalid)
			}
			if strings.HasPrefix(tt.want, "http-error") && calls[0].Error.Message != "HTTP "+strconv.Itoa(tt.status)+" "+http.StatusText(tt.status)+"; WWW-Authenticate: "+challenge["WWW-Authenticate"] {
				t.Errorf("error message %q", calls[0].Error.Message)
			}
		})
	}
}
