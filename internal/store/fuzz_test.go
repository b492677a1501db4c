package store

import (
	"bytes"
	"path/filepath"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// fuzzRecords turns fuzz input into records: each line is one frame whose
// first byte picks the direction (even c2s, odd s2c); a line "!end" or
// "!note" becomes that record instead. Frames are embedded as the Writer
// would embed them (msg, text or b64).
func fuzzRecords(data []byte) []capture.Record {
	var recs []capture.Record
	now := t0
	for i, line := range bytes.Split(data, []byte("\n")) {
		now = now.Add(time.Duration(i%7) * time.Millisecond)
		r := capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: now, Dir: capture.C2S}
		switch {
		case string(line) == "!end":
			r.Type = capture.TypeEnd
		case string(line) == "!note":
			r.Type, r.Note, r.LostFrame = capture.TypeNote, capture.NoteCaptureGap, 1
		case len(line) > 0:
			if line[0]%2 == 1 {
				r.Dir = capture.S2C
			}
			line = line[1:]
			trimmed := bytes.TrimSpace(line)
			switch {
			case !utf8.Valid(line):
				r.B64 = line
			case len(trimmed) > 0 && jsontext.Value(trimmed).IsValid(jsontext.AllowDuplicateNames(true)):
				r.Msg = jsontext.Value(trimmed)
			default:
				r.Text = string(line)
			}
		}
		recs = append(recs, r)
	}
	return recs
}

// framesOf prefixes each raw frame with its direction byte for the corpus.
func framesOf(steps []step) []byte {
	var b []byte
	for _, st := range steps {
		if st.dir == capture.S2C {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
		b = append(b, st.raw...)
		b = append(b, '\n')
	}
	return b
}

func FuzzIngest(f *testing.F) {
	for _, name := range []string{"elicit-seed.transcript.jsonl", "legacy-2025-11-25.transcript.jsonl"} {
		f.Add(framesOf(transcript(f, filepath.Join("testdata", name))))
	}
	// Skills (digests checked on read) and MCP Apps (UI reads, app-rendered forms).
	for _, name := range []string{"skills-tampered.transcript.jsonl", "apps.transcript.jsonl", "apps-legacy.transcript.jsonl",
		"tasks-input-required.transcript.jsonl", "tasks-update-after-terminal.transcript.jsonl", "tasks-misuse.transcript.jsonl"} {
		f.Add(framesOf(transcript(f, filepath.Join("..", "..", "testdata", "transcripts", name))))
	}
	f.Add(framesOf([]step{
		c2s(0, tool("1", "t", `{}`, "")),
		s2c(0, inputRequired("1", elicit("a"), "s")),
		c2s(0, tool("1", "t", `{"x":1}`, `,"inputResponses":{"a":{}},"requestState":"t"`)),
		c2s(0, notif("notifications/cancelled", `{"requestId":1}`)),
		s2c(0, done("1")),
		s2c(0, req("0", "elicitation/create", `{}`)),
		c2s(0, `[`+req("null", "x", "")+`,{"id":2,"result":{}}]`),
		s2c(0, errRes("null", -32700, "x")),
	}))
	f.Add([]byte("0{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n!note\n1\xff\xfe\n!end"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(&Options{OnFrame: func(fr *Frame) {
			if fr.Call < -1 {
				t.Fatalf("frame %d: call %d", fr.Seq, fr.Call)
			}
		}})
		s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, Format: 1})
		recs := fuzzRecords(data)
		for i := range recs {
			s.Ingest(&recs[i])
			if i == len(recs)/2 {
				checkConsistent(t, s.Snapshot())
			}
		}
		s.SetDamage(capture.Damage{Torn: len(data)%2 == 0})
		snap := s.Snapshot()
		checkConsistent(t, snap)
		checkInflight(t, s, snap)
	})
}

// checkInflight recomputes the client calls in flight from the snapshot:
// unanswered, uncancelled, and still the latest call with their id.
func checkInflight(t *testing.T, s *Store, snap *Snapshot) {
	t.Helper()
	latest := make(map[idSpace]map[string]int)
	for i, c := range snap.Calls.Slice() {
		k := idSpace{c.Dir, c.Conn}
		if latest[k] == nil {
			latest[k] = make(map[string]int)
		}
		latest[k][c.ID.Raw()] = i
	}
	var want inflight
	for i, c := range snap.Calls.Slice() {
		if c.Dir == capture.C2S && c.ResponseSeq == 0 && c.CancelSeq == 0 && latest[idSpace{c.Dir, c.Conn}][c.ID.Raw()] == i {
			want.add(i)
		}
	}
	if want != s.inflight {
		t.Fatalf("in flight = %+v, want %+v", s.inflight, want)
	}
}

// opFrame turns one (op, arg) byte pair into a frame from a small alphabet
// of correlation events over four ids, two tools, two keys and three
// states, so that the fuzzer explores pairing rather than JSON syntax.
func opFrame(op, arg byte) step {
	id := strconv.Itoa(int(arg % 4))
	name := "t" + strconv.Itoa(int(arg/4%2))
	key := "k" + strconv.Itoa(int(arg/8%2))
	state := ""
	if n := arg / 16 % 3; n > 0 {
		state = "s" + strconv.Itoa(int(n))
	}
	extra := `,"inputResponses":{"` + key + `":{"action":"accept"}}`
	if state != "" {
		extra += `,"requestState":"` + state + `"`
	}
	if op >= 0xf0 {
		return taskFrame(op, arg, id)
	}
	switch op % 12 {
	case 0:
		return c2s(int(arg%3), tool(id, name, `{}`, ""))
	case 1:
		return s2c(int(arg%5), done(id))
	case 2:
		return s2c(int(arg%5), inputRequired(id, elicit(key), state))
	case 3:
		return c2s(int(arg%7), tool(id, name, `{}`, extra))
	case 4:
		return c2s(0, notif("notifications/cancelled", `{"requestId":`+id+`}`))
	case 5:
		return s2c(1, req(id, "elicitation/create", `{"message":"m"}`))
	case 6:
		return c2s(1, res(id, `{"action":"decline"}`))
	case 7:
		return s2c(1, errRes(id, -32602, "bad"))
	case 8:
		return c2s(0, req(id, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{}}`))
	case 9:
		return c2s(0, "not json")
	case 10:
		return s2c(0, errRes("null", -32700, "parse error"))
	}
	if arg%2 == 0 {
		return endRec()
	}
	return noteRec(capture.Record{Note: capture.NoteCaptureGap, LostFrame: 1})
}

// taskFrame is one frame of the Tasks extension (op 0xf0 and above): a
// tools/call declaring it, a CreateTaskResult, a tasks/* request, a task
// state answer or notifications/tasks, for task t0 or t1.
func taskFrame(op, arg byte, id string) step {
	tid := "t" + strconv.Itoa(int(arg/4%2))
	statuses := []string{"working", "input_required", "completed", "failed", "cancelled", "bogus"}
	status := statuses[int(arg/8)%len(statuses)]
	state := `"taskId":"` + tid + `","status":"` + status + `","ttlMs":null,"pollIntervalMs":` + strconv.Itoa(int(arg%3)) +
		`,"inputRequests":` + elicit("k") + `,"result":{"content":[]},"error":{"code":-32603,"message":"m"}`
	switch op % 8 {
	case 0:
		return c2s(int(arg%3), taskCall(id))
	case 1:
		return s2c(int(arg%5), res(id, `{"resultType":"task",`+state+`}`))
	case 2:
		return c2s(int(arg%7), `{"jsonrpc":"2.0","id":`+id+`,"method":"tasks/get","params":{"taskId":"`+tid+`",`+taskMeta+`}}`)
	case 3:
		return c2s(int(arg%7), `{"jsonrpc":"2.0","id":`+id+`,"method":"tasks/update","params":{"taskId":"`+tid+`","inputResponses":{"k":{"action":"accept"}},`+taskMeta+`}}`)
	case 4:
		return c2s(1, `{"jsonrpc":"2.0","id":`+id+`,"method":"tasks/cancel","params":{"taskId":"`+tid+`",`+taskMeta+`}}`)
	case 5:
		return s2c(int(arg%5), res(id, `{"resultType":"complete",`+state+`}`))
	case 6:
		return s2c(1, notif("notifications/tasks", `{`+state+`}`))
	}
	return s2c(1, errRes(id, -32000-int(arg%30), "task error"))
}

func FuzzCorrelate(f *testing.F) {
	// A task created, polled into input_required, updated, completed.
	f.Add([]byte{0xf0, 0, 0xf1, 0, 0xf2, 1, 0xf5, 9, 0xf3, 2, 0xf5, 18, 0xf6, 16})
	f.Add([]byte{0, 0, 2, 16, 3, 16, 1, 0})
	f.Add([]byte{0, 1, 0, 1, 5, 2, 6, 2, 4, 1, 1, 1, 11, 0})
	f.Add([]byte{0, 4, 2, 36, 3, 4, 2, 0, 3, 32, 7, 0, 9, 0, 10, 0, 10, 0})
	f.Fuzz(func(t *testing.T, prog []byte) {
		var steps []step
		for i := 0; i+1 < len(prog); i += 2 {
			steps = append(steps, opFrame(prog[i], prog[i+1]))
		}
		s := New(nil)
		s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, Format: 1})
		now := t0
		for i, st := range steps {
			now = now.Add(st.after)
			r := capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: now, Dir: st.dir, Msg: []byte(st.raw)}
			if st.rec != nil {
				r = *st.rec
				r.Seq, r.Time = uint64(i+1), now
			} else if !jsontext.Value(st.raw).IsValid() {
				r.Msg, r.Text = nil, st.raw
			}
			s.Ingest(&r)
		}
		snap := s.Snapshot()
		checkConsistent(t, snap)
		checkInflight(t, s, snap)
		for _, op := range snap.Operations.Slice() {
			if op.WaitMS < 0 || (op.End != (time.Time{}) && op.ToolMS < 0) {
				t.Fatalf("operation %d: wait %v tool %v", op.Index, op.WaitMS, op.ToolMS)
			}
		}
	})
}
