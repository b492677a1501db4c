package redact_test

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// BenchmarkLine measures Line on a frame no rule selects (the pre-scan
// alone) and on one whose key a rule selects (tokenized and rewritten).
func BenchmarkLine(b *testing.B) {
	r, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, line string }{
		{"plain", `{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`},
		{"result", `{"jsonrpc":"2.0","id":12346,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}`},
		{"key", `{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"api_key":"sk-1","text":"hi"}}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			line := []byte(bc.line)
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				r.Line(capture.TypeFrame, capture.C2S, line)
			}
		})
	}
}
