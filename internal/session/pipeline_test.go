package session_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// seenFrame is what a view reads of one frame.
type seenFrame struct {
	Seq                     uint64
	Kind, Method, Problem   string
	Call                    int
	ID, Params, Result, Err string
}

// TestLoadMatchesOneByOne holds Load, which reads and decodes on one
// goroutine and correlates on another (either side decoding a batch), to
// a store fed the same records one by one on one goroutine: the same
// frames handed to OnFrame, the same calls and findings, with and
// without a redactor (whose rewritten messages are checked again).
func TestLoadMatchesOneByOne(t *testing.T) {
	t.Parallel()
	data := testbin.PipelinedCapture(t, 3000) // 6,000 frames: many batches
	secrets, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		red  redact.Redactor
	}{{"plain", nil}, {"redacted", secrets}} {
		t.Run(tc.name, func(t *testing.T) {
			var viaLoad, oneByOne []seenFrame
			s, err := session.Load(reader(t, bytes.NewReader(data)), &session.Options{Redactor: tc.red, OnFrame: recordFrame(&viaLoad)})
			if err != nil {
				t.Fatal(err)
			}
			r := reader(t, bytes.NewReader(data))
			st := session.NewStore(&session.Options{OnFrame: recordFrame(&oneByOne)})
			st.Ingest(session.Header(r, tc.red))
			for {
				var rec capture.Record
				if r.Next(&rec) != nil {
					break
				}
				if tc.red != nil {
					tc.red.Record(&rec)
				}
				st.Ingest(&rec)
			}
			want := st.Final()
			if len(viaLoad) != 6000 {
				t.Fatalf("Load handed out %d frames, want 6000", len(viaLoad))
			}
			if diff := cmp.Diff(oneByOne, viaLoad); diff != "" {
				t.Errorf("frames differ (-one by one +Load):\n%s", diff)
			}
			if diff := cmp.Diff(findings(want), findings(s.Snapshot)); diff != "" {
				t.Errorf("findings differ (-one by one +Load):\n%s", diff)
			}
			if diff := cmp.Diff(callsOf(want), callsOf(s.Snapshot)); diff != "" {
				t.Errorf("calls differ (-one by one +Load):\n%s", diff)
			}
		})
	}
}

// recordFrame returns an OnFrame that appends what it sees to out.
func recordFrame(out *[]seenFrame) func(*store.Frame) {
	return func(f *store.Frame) {
		m := f.Msg
		*out = append(*out, seenFrame{
			Seq: f.Seq, Kind: f.Kind.String(), Method: f.Method, Problem: f.Problem, Call: f.Call,
			ID: m.ID.Raw(), Params: string(m.Params), Result: string(m.Result), Err: m.ErrorMessage,
		})
	}
}

// seenCall is what the test compares of a call.
type seenCall struct {
	Method, Target, Status, ID string
	RequestSeq, ResponseSeq    uint64
	Operation                  int
}

func callsOf(s *store.Snapshot) []seenCall {
	var out []seenCall
	for _, c := range s.Calls.Slice() {
		out = append(out, seenCall{c.Method, c.Target, string(c.Status), c.ID.Raw(), c.RequestSeq, c.ResponseSeq, c.Operation})
	}
	return out
}
