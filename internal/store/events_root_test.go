package store

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// feed ingests the records of a capture of steps (its header included).
func feed(t *testing.T, s *Store, steps []step) {
	t.Helper()
	r, err := capture.NewReader(bytes.NewReader(captureOf(t, steps)))
	if err != nil {
		t.Fatal(err)
	}
	s.Ingest(r.Header())
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			return
		}
		s.Ingest(&rec)
	}
}

// TestEventRootsShared checks what the store keeps per open call for its
// event: requests of one shape share one copy of it (a million open calls
// each held their own, in a 64-byte buffer, beside an 80-byte record), the
// trace context is kept only for a request that has one, and the events
// still carry both.
func TestEventRootsShared(t *testing.T) {
	t.Parallel()
	traced := `{"name":"t","arguments":{"q":"b"},"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}`
	var got []string
	s := New(&Options{Events: &EventOptions{OnChange: func(ch *Change) {
		got = append(got, string(ch.Params)+" "+ch.TraceParent)
	}}})
	feed(t, s, []step{
		c2s(0, req("1", "tools/call", `{"name":"t","arguments":{"q":"a"}}`)),
		c2s(0, req("2", "tools/call", `{"name":"t","arguments":{"q":"zz"}}`)),
		c2s(0, req("3", "tools/call", traced)),
	})
	ev := s.ev
	p1, _ := ev.root(0)
	p2, _ := ev.root(1)
	if len(p1.params) == 0 || &p1.params[0] != &p2.params[0] {
		t.Errorf("params shapes %s and %s are not shared", p1.params, p2.params)
	}
	if cap(p1.params) != len(p1.params) {
		t.Errorf("shape kept in a %d-byte buffer for %d bytes", cap(p1.params), len(p1.params))
	}
	if len(ev.rootMeta) != 1 {
		t.Errorf("trace context kept for %d requests, want 1", len(ev.rootMeta))
	}
	for _, st := range []step{s2c(1, done("1")), s2c(1, done("3"))} {
		feed(t, s, []step{st})
	}
	if len(got) != 2 || got[0] != string(p1.params)+" " || got[1] != string(p1.params)+" 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" {
		t.Errorf("changes carried %q", got)
	}
	if _, ok := ev.root(0); ok {
		t.Error("call 1's request is still kept after its event")
	}
	if len(ev.rootMeta) != 0 {
		t.Error("call 3's trace context is still kept after its event")
	}
}
