package mock

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// header is a capture's session record.
const header = `{"type":"session","time":"2026-07-28T12:00:00Z","format":1,"session_id":"t1","transport":"stdio","label":"t","command":["srv"]}`

// frames turns "c2s <msg>" / "s2c <msg>" lines into a capture; a line that
// starts with "raw " is put in the capture as it is.
func frames(lines ...string) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	for i, l := range lines {
		if raw, ok := strings.CutPrefix(l, "raw "); ok {
			b.WriteString(raw + "\n")
			continue
		}
		dir, msg, _ := strings.Cut(l, " ")
		fmt.Fprintf(&b, `{"type":"frame","seq":%d,"time":"2026-07-28T12:00:00.%03dZ","dir":%q,"msg":%s}`+"\n", i+1, i+1, dir, msg)
	}
	return b.String()
}

// loadScript reads a capture's text into a Script.
func loadScript(t *testing.T, text string) *Script {
	t.Helper()
	r, err := capture.NewReader(strings.NewReader(text))
	if err != nil {
		t.Fatalf("reading the capture: %v", err)
	}
	snap, err := store.Load(r, &store.Options{KeepFrames: true})
	if err != nil {
		t.Fatalf("loading the capture: %v", err)
	}
	s, err := NewScript(snap)
	if err != nil {
		t.Fatalf("NewScript: %v", err)
	}
	return s
}

// sent is one message a Sender got.
type sent struct {
	msg   string
	final bool
}

// recorder is a Sender that keeps what it is sent.
type recorder struct{ got []sent }

func (r *recorder) Send(msg []byte, final bool) { r.got = append(r.got, sent{string(msg), final}) }

// serve sends msg to m and returns what came back on its Sender.
func serve(m *Mock, msg string) []sent {
	var r recorder
	m.Serve([]byte(msg), &r)
	return r.got
}

// result returns the member name of the result (or error) of a response.
func field(t *testing.T, msg, name string) string {
	t.Helper()
	f := wire.Decode([]byte(msg))
	v := f.Result
	if f.Kind == wire.KindError {
		return f.ErrorMessage
	}
	for _, p := range strings.Split(name, ".") {
		v = member(v, p)
	}
	return string(v)
}
