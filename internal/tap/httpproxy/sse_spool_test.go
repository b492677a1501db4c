package httpproxy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestSSEParserSpools: events whose data lines grow past
// capture.SpoolAbove are dispatched from a spool with the same data the
// in-memory parser gathers, however the stream is cut; a long line that
// is not data is skipped without being held.
func TestSSEParserSpools(t *testing.T) {
	big := strings.Repeat("é", capture.SpoolAbove/2+1)
	stream := "id: 1\r\ndata: first\r\ndata: " + big + "\r\ndata: last\r\n\r\n" +
		": " + big + "\n" +
		"data: " + big + "\n\n" +
		"data: small\n\n" +
		"data: " + big // unfinished
	for _, piece := range []int{1 << 20, 4093} {
		var mem, spooled []string
		var ref sseParser
		p := sseParser{
			newSpool: func() *capture.Spool {
				sp, err := capture.NewSpool(t.TempDir(), capture.TypeFrame, nil)
				if err != nil {
					t.Fatal(err)
				}
				return sp
			},
			emitSpool: func(sp *capture.Spool, _, _ string) {
				defer sp.Close()
				b, err := sp.Bytes()
				if err != nil {
					t.Fatal(err)
				}
				spooled = append(spooled, "spool:"+string(b))
			},
		}
		for s := stream; len(s) > 0; {
			n := min(piece, len(s))
			ref.feed([]byte(s[:n]), func(d []byte, _, _ string) { mem = append(mem, "spool:"+string(d)) })
			p.feed([]byte(s[:n]), func(d []byte, _, _ string) { spooled = append(spooled, string(d)) })
			if len(p.line) > capture.SpoolAbove || len(p.data) > capture.SpoolAbove {
				t.Fatalf("piece %d: the parser holds %d + %d bytes", piece, len(p.line), len(p.data))
			}
			s = s[n:]
		}
		// The small event is emitted from memory, the large ones from spools.
		mem[2] = "small"
		if diff := cmp.Diff(mem, spooled); diff != "" {
			t.Errorf("piece %d: events differ (-memory +spooled): %.400s", piece, diff)
		}
		if p.pending() <= capture.SpoolAbove {
			t.Errorf("piece %d: pending %d, want the unfinished event's size", piece, p.pending())
		}
		p.discard()
	}
}
