package testbin

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// PipelinedCapture returns a capture of n pipelined 2026-07-28 tools/call
// requests followed by their n results (2n frames, about 200 bytes each),
// as the tap writes it: the capture of the exports' 200k-frame benchmarks,
// so that their figures compare.
func PipelinedCapture(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	start := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion,
		SessionID: "bench", Transport: "stdio", Label: "bench", Command: []string{"bench-server"}}))
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`
	var seq uint64
	for i := 1; i <= n; i++ {
		seq++
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello %d"},%s}}`, i, i, meta)
		must(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), capture.C2S, []byte(line), false, "", nil))
	}
	for i := 1; i <= n; i++ {
		seq++
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[{"type":"text","text":"hello %d"}]}}`, i, i)
		must(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), capture.S2C, []byte(line), false, "", nil))
	}
	must(w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Second)}))
	must(w.Flush())
	return buf.Bytes()
}
