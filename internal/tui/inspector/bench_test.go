package inspector

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// bigData is a call whose response holds a 1 MB single-line string (big)
// or a 50,000-element array of small objects.
func bigData(b *testing.B, array bool) ui.Data {
	var resp string
	if array {
		var sb strings.Builder
		for i := range 50_000 {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(`{"i":` + strconv.Itoa(i) + `,"name":"item"}`)
		}
		resp = `{"jsonrpc":"2.0","id":1,"result":{"items":[` + sb.String() + `]}}`
	} else {
		resp = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("abc\\u001b", 1<<20/9) + `"}]}}`
	}
	steps := []tuitest.Step{
		{Dir: "c2s", Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}`)},
		{Dir: "s2c", Raw: []byte(resp)},
	}
	return tuitest.Data(b, tuitest.Capture(b, "big", steps, true))
}

// benchOpen measures what the user waits for when opening the inspector
// on the big response: reading and parsing the frames (the Init command),
// taking them (Update), switching to the response and drawing it.
func benchOpen(b *testing.B, array bool) {
	d := bigData(b, array)
	b.ResetTimer()
	for b.Loop() {
		m := open(b, d, 0, 120, 40)
		m, _ = tuitest.Send(m, "tab")
		_ = m.View()
	}
}

func BenchmarkOpen1MBString(b *testing.B) { benchOpen(b, false) }
func BenchmarkOpen50kArray(b *testing.B)  { benchOpen(b, true) }
func BenchmarkKey1MBString(b *testing.B)  { benchKeys(b, false, "j", "k") }
func BenchmarkKey50kArray(b *testing.B)   { benchKeys(b, true, "pgdown", "pgup") }
func BenchmarkFold50kArray(b *testing.B)  { benchKeys(b, true, "z", "Z") }
func BenchmarkSearch50kArray(b *testing.B) {
	benchKeys(b, true, "/", "4", "9", "9", "9", "9", "enter", "n")
}

// benchKeys measures one key press, Update and View, on the open response.
func benchKeys(b *testing.B, array bool, keys ...string) {
	m := open(b, bigData(b, array), 0, 120, 40)
	m, _ = tuitest.Send(m, "tab", "j", "j", "j", "j", "j", "j")
	msgs := make([]any, len(keys))
	for i, k := range keys {
		msgs[i] = tuitest.Press(k)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, msg := range msgs {
			m, _ = m.Update(msg)
			_ = m.View()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
}
