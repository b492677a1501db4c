package httpproxy

import (
	"strings"
	"testing"
)

// FuzzLooksJSONRPC: any body start is classified without a panic, only a
// JSON object or array is ever taken for JSON-RPC, and a body that opens
// with a "jsonrpc" member always is, however it goes on.
func FuzzLooksJSONRPC(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"method":"x"}]`, `grant_type=x`, `{"a":`, "\xff{"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if s := strings.TrimLeft(string(b), " \t\r\n"); looksJSONRPC(b) && (s == "" || s[0] != '{' && s[0] != '[') {
			t.Fatalf("%q, not an object or array, taken for JSON-RPC", b)
		}
		if !looksJSONRPC(append([]byte(`{"jsonrpc":"2.0",`), b...)) {
			t.Fatalf("a body opening with a jsonrpc member was not taken for JSON-RPC: %q", b)
		}
	})
}
