package capture

import (
	"io"
	"testing"
	"time"
)

// BenchmarkWriteLine measures encoding one frame record into a buffered
// writer that discards.
func BenchmarkWriteLine(b *testing.B) {
	at := time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)
	for _, f := range benchFrames() {
		b.Run(f.name, func(b *testing.B) {
			w := NewWriter(io.Discard)
			b.SetBytes(int64(len(f.line)))
			seq := uint64(0)
			for b.Loop() {
				seq++
				if err := w.WriteLine(TypeFrame, seq, at, S2C, f.line, false, "", nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteLineHTTP measures a frame record with the HTTP envelope a
// Streamable HTTP request carries (six headers, written in name order).
func BenchmarkWriteLineHTTP(b *testing.B) {
	at := time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)
	env := &HTTP{Exchange: "x12", Method: "POST", Path: "/mcp", Headers: map[string]string{
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "deploy", "Mcp-Param-Env": "staging"}}
	line := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"staging"}}}`)
	w := NewWriter(io.Discard)
	b.SetBytes(int64(len(line)))
	seq := uint64(0)
	for b.Loop() {
		seq++
		if err := w.WriteLine(TypeFrame, seq, at, C2S, line, false, "", env); err != nil {
			b.Fatal(err)
		}
	}
}
