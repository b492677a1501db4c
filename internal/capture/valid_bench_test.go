package capture

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// benchFrames are typical frames for the validator and writer benchmarks:
// a tools/call request and result of about 100 bytes, and a 10 KB result.
func benchFrames() []struct {
	name string
	line []byte
} {
	var big strings.Builder
	big.WriteString(`{"jsonrpc":"2.0","id":7,"result":{"content":[`)
	for i := 0; big.Len() < 10<<10; i++ {
		if i > 0 {
			big.WriteByte(',')
		}
		big.WriteString(`{"type":"text","text":"line ` + strconv.Itoa(i) + ` of the forecast: 12.5 °C, wind 4 m/s \"gusty\""}`)
	}
	big.WriteString(`],"isError":false}}`)
	return []struct {
		name string
		line []byte
	}{
		{"request", []byte(`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)},
		{"result", []byte(`{"jsonrpc":"2.0","id":12345,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}`)},
		{"10KB", []byte(big.String())},
		// scripts/bench's 1 KiB request: one long plain string.
		{"1KiBpad", []byte(`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"` + strings.Repeat("p", 920) + `"}}}`)},
	}
}

// BenchmarkValid measures what the writer spends deciding how to embed a
// frame: UTF-8 and JSON validity.
func BenchmarkValid(b *testing.B) {
	for _, f := range benchFrames() {
		b.Run(f.name+"/validJSON", func(b *testing.B) {
			b.SetBytes(int64(len(f.line)))
			for b.Loop() {
				if !validJSON(f.line) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(f.name+"/utf8", func(b *testing.B) {
			b.SetBytes(int64(len(f.line)))
			for b.Loop() {
				if !utf8.Valid(f.line) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(f.name+"/jsontext", func(b *testing.B) {
			b.SetBytes(int64(len(f.line)))
			for b.Loop() {
				if !jsontext.Value(f.line).IsValid(jsontext.AllowDuplicateNames(true)) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
