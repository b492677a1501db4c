package mcpserve_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// manyFrames is how many frames TestManyFrames' session holds.
const manyFrames = 1_000_000

// writeManyFrames writes, through the real capture.Writer, a session of
// an initialize and then tools/call exchanges up to frames frames, every
// 1000th call failing with a message of terminal escapes, into state's
// sessions folder as session "many".
func writeManyFrames(t *testing.T, state string, frames int) {
	t.Helper()
	dir := filepath.Join(state, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "20260801T130000.000000Z-many-many.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := capture.NewWriter(bw)
	start := time.Date(2026, 8, 1, 13, 0, 0, 0, time.UTC)
	var seq uint64
	var werr error
	keep := func(err error) {
		if err != nil && werr == nil {
			werr = err
		}
	}
	frame := func(dir capture.Dir, line string) {
		seq++
		keep(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), dir, []byte(line), false, "", nil))
	}
	keep(w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion,
		SessionID: "many", Transport: "stdio", Label: "many", Command: []string{"many-server"}}))
	frame(capture.C2S, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"many","version":"1"}}}`)
	frame(capture.S2C, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"many","version":"1"}}}`)
	frame(capture.C2S, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for id := 1; int(seq)+2 <= frames; id++ {
		s := strconv.Itoa(id)
		frame(capture.C2S, `{"jsonrpc":"2.0","id":`+s+`,"method":"tools/call","params":{"name":"search","arguments":{"q":"q`+s+`"}}}`)
		if id%1000 == 0 {
			frame(capture.S2C, `{"jsonrpc":"2.0","id":`+s+`,"error":{"code":-32603,"message":"boom \u001b[2J\u001b]0;pwned\u0007 \u202e`+s+`"}}`)
		} else {
			frame(capture.S2C, `{"jsonrpc":"2.0","id":`+s+`,"result":{"content":[{"type":"text","text":"r`+s+`"}]}}`)
		}
	}
	if int(seq) < frames {
		frame(capture.S2C, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	}
	keep(w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Hour)}))
	keep(w.Flush())
	keep(bw.Flush())
	keep(f.Close())
	if werr != nil {
		t.Fatal(werr)
	}
}

// TestManyFrames serves a session of a million frames under a small
// budget: every answer is bounded and escaped, the lists page, the
// failed calls filter to their thousandth, the report resource is cut at
// 1 MiB, and the server stays up. Each answer reads the whole session
// (about 4 s here), so it calls each tool once. MCPTRAIL_MCP_FRAMES sets the count
// (the default is a million).
func TestManyFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("a million frames: skipped in -short mode")
	}
	t.Parallel()
	n := manyFrames
	if v, err := strconv.Atoi(os.Getenv("MCPTRAIL_MCP_FRAMES")); err == nil && v > 0 {
		n = v
	}
	state := t.TempDir()
	writeManyFrames(t, state, n)
	const budget = 4096
	cs := connect(t, state, "--max-answer", strconv.Itoa(budget))
	const id = "many"
	check := func(a answer) {
		t.Helper()
		if a.isError {
			t.Errorf("%s: error %q", a.tool, a.text)
		}
		if a.size > budget+budget/8 {
			t.Errorf("%s: answer of %d bytes, over the budget %d", a.tool, a.size, budget)
		}
		terminalSafe(t, a.text)
	}
	start := time.Now()
	sum := call(t, cs, "session_summary", map[string]any{"session": id})
	check(sum)
	t.Logf("session_summary of %d frames: %v", n, time.Since(start).Round(time.Millisecond))
	if frames := sum.structured["counts"].(map[string]any)["frames"].(float64); int(frames) != n {
		t.Errorf("summary counts %v frames, want %d", frames, n)
	}
	calls := (n-3)/2 + 1 // initialize and the tools/call requests
	failed := call(t, cs, "calls", map[string]any{"session": id, "filter": "status:error"})
	check(failed)
	if got := int(failed.structured["total"].(float64)); got != (calls-1)/1000 {
		t.Errorf("status:error: %d calls, want %d", got, (calls-1)/1000)
	}
	for _, tool := range []string{"calls", "check", "ledger", "sessions"} {
		a := call(t, cs, tool, map[string]any{"session": id})
		if tool == "sessions" {
			a = call(t, cs, tool, nil)
		}
		check(a)
		if tool == "calls" && (a.structured["next_cursor"] == nil || int(a.structured["total"].(float64)) != calls) {
			t.Errorf("calls: total %v, next_cursor %v; want %d and a cursor", a.structured["total"], a.structured["next_cursor"], calls)
		}
	}
	last := call(t, cs, "calls", map[string]any{"session": id, "cursor": strconv.Itoa(calls - 1)})
	check(last)
	check(call(t, cs, "call", map[string]any{"session": id, "call": 1000}))
	check(call(t, cs, "tail", map[string]any{"session": id, "what": "records", "after_seq": n - 3, "count": 100, "timeout_s": 10}))
	report, err := read(t, cs, "mcptrail://sessions/"+id)
	if err != nil {
		t.Fatal(err)
	}
	if len(report) > 1<<20+200 || !strings.Contains(report, "[cut: ") {
		t.Errorf("report of %d frames: %d bytes, cut %v", n, len(report), strings.Contains(report, "[cut: "))
	}
	terminalSafe(t, strings.ReplaceAll(report, "\t", " "))
	t.Logf("%d frames: every answer in %v", n, time.Since(start).Round(time.Millisecond))
}
