package store

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

func TestNotesAndEnd(t *testing.T) {
	t.Parallel()
	exit0, exit3 := 0, 3
	tests := []struct {
		name     string
		steps    []step
		findings []string
		check    func(t *testing.T, s Session)
	}{{
		name: "clean end with an unanswered request",
		steps: []step{
			c2s(0, req("1", "a", "")),
			c2s(0, req("2", "b", "")),
			s2c(5, res("2", `{}`)),
			noteRec(capture.Record{Note: capture.NoteServerExit, Exit: &exit0}),
			endRec(),
		},
		findings: []string{"unanswered-request@1"},
		check: func(t *testing.T, s Session) {
			if !s.Ended || !s.End.Equal(t0.Add(5*time.Millisecond)) || s.Exit == nil || *s.Exit != 0 {
				t.Errorf("session end/exit wrong: %+v", s)
			}
		},
	}, {
		name:     "no end record: an unanswered request may still be running",
		steps:    []step{c2s(0, req("1", "a", "")), s2c(7, notif("notifications/progress", `{}`))},
		findings: []string{},
		check: func(t *testing.T, s Session) {
			if s.Ended || !s.End.Equal(t0.Add(7*time.Millisecond)) {
				t.Errorf("End = %v (ended %v), want the last record's time", s.End, s.Ended)
			}
		},
	}, {
		name: "capture gap and abnormal exits",
		steps: []step{
			noteRec(capture.Record{Note: capture.NoteCaptureGap, LostFrame: 3, LostBytes: 300}),
			noteRec(capture.Record{Note: capture.NoteCaptureGap, LostFrame: 1, LostBytes: 10}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Exit: &exit3}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Signal: "SIGKILL"}),
			noteRec(capture.Record{Note: capture.NoteClientClosed}),
		},
		findings: []string{"capture-gap@1", "capture-gap@2", "server-exit-abnormal@3", "server-exit-abnormal@4"},
		check: func(t *testing.T, s Session) {
			if s.LostFrames != 4 || s.LostBytes != 310 || s.Signal != "SIGKILL" {
				t.Errorf("lost %d/%d signal %q", s.LostFrames, s.LostBytes, s.Signal)
			}
		},
	}, {
		// A server that ends on its client's shutdown signal exited
		// normally; one that had ignored its stdin's EOF for a second first
		// gets the info finding; one mcptrail killed after --kill-after,
		// or one that crashed, is abnormal.
		name: "stopped by the client, by the tap, killed after the grace",
		steps: []step{
			noteRec(capture.Record{Note: capture.NoteServerExit, Signal: "SIGTERM", StoppedBy: capture.StopClient, EOFAgeUS: 3000}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Exit: &exit0, StoppedBy: capture.StopClient}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Signal: "SIGTERM", StoppedBy: capture.StopClient, EOFAgeUS: 2_000_000}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Signal: "SIGTERM", StoppedBy: capture.StopTap, EOFAgeUS: 5_000_000}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Signal: "SIGKILL", StoppedBy: capture.StopKillAfter}),
			noteRec(capture.Record{Note: capture.NoteServerExit, Signal: "SIGSEGV"}),
		},
		findings: []string{"server-ignored-stdin-eof@3", "server-ignored-stdin-eof@4", "server-exit-abnormal@5", "server-exit-abnormal@6"},
		check:    func(t *testing.T, s Session) {},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.findings, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			tt.check(t, snap.Session)
			checkConsistent(t, snap)
		})
	}
}

func TestDamage(t *testing.T) {
	t.Parallel()
	data := captureOf(t, []step{c2s(0, req("1", "a", "")), s2c(1, res("1", `{}`))})
	lines := bytes.SplitAfter(data, []byte("\n"))
	// Corrupt the first frame line and tear the last one.
	var damaged []byte
	damaged = append(damaged, lines[0]...)
	damaged = append(damaged, "{not a record\n"...)
	damaged = append(damaged, lines[1]...)
	damaged = append(damaged, lines[2][:20]...)
	snap := loadBytes(t, damaged, nil)
	want := []string{"capture-torn@0", "capture-corrupt@0"}
	if diff := cmp.Diff(want, findingLines(snap.Findings.Slice())); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if d := snap.Session.Damage; !d.Torn || d.Corrupt != 1 {
		t.Errorf("damage = %+v", d)
	}
	if got := callLines(snap.Calls.Slice()); !cmp.Equal(got, []string{"c2s 1 a pending"}) {
		t.Errorf("calls = %v", got)
	}
}

func TestHeaderAndCounts(t *testing.T) {
	t.Parallel()
	s := New(nil)
	s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, Format: 1, SessionID: "id", Transport: "stdio",
		Label: "lbl", Command: []string{"node", "srv.js"}, ToolVersion: "v"})
	s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: 1, Time: t0, Dir: capture.C2S, Size: 12, Msg: []byte(notif("x", "{}")), Raw: " " + notif("x", "{}")})
	s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: 2, Time: t0, Dir: capture.S2C, Text: "hello"})
	s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: 3, Time: t0, Dir: capture.S2C, B64: []byte{0xff, 0xfe}})
	s.Ingest(&capture.Record{Type: capture.TypeStderr, Seq: 4, Time: t0, Text: "log"})
	s.Ingest(&capture.Record{Type: capture.TypeNote, Seq: 5, Time: t0, Note: capture.NoteClientClosed})
	snap := s.Snapshot()
	wantCounts := Counts{Records: 6, Frames: 3, C2S: 1, S2C: 2, Bytes: 12 + 5 + 2, Invalid: 2, Notifications: 1, Stderr: 1, Notes: 1}
	if diff := cmp.Diff(wantCounts, snap.Counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if got := snap.Session; got.ID != "id" || got.Label != "lbl" || got.Transport != "stdio" || got.ToolVersion != "v" ||
		!cmp.Equal(got.Command, []string{"node", "srv.js"}) || !got.Start.Equal(t0) || got.Format != 1 {
		t.Errorf("session = %+v", got)
	}
}

func TestSnapshotIsImmutable(t *testing.T) {
	t.Parallel()
	s := New(nil)
	s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, Format: 1, Command: []string{"x"}})
	frame := func(seq uint64, dir capture.Dir, msg string) {
		s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: seq, Time: t0.Add(time.Duration(seq) * time.Millisecond), Dir: dir, Msg: []byte(msg)})
	}
	frame(1, capture.C2S, tool("1", "t", `{}`, ""))
	frame(2, capture.S2C, inputRequired("1", elicit("a"), "s"))
	before := s.Snapshot()
	frozen := callLines(before.Calls.Slice())
	frozenOps := opLines(before.Operations.Slice())
	frame(3, capture.C2S, tool("2", "t", `{}`, `,"requestState":"s"`))
	frame(4, capture.S2C, done("2"))
	if diff := cmp.Diff(frozen, callLines(before.Calls.Slice())); diff != "" {
		t.Errorf("earlier snapshot's calls changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(frozenOps, opLines(before.Operations.Slice())); diff != "" {
		t.Errorf("earlier snapshot's operations changed (-before +after):\n%s", diff)
	}
	after := s.Snapshot()
	if got := opLines(after.Operations.Slice()); !cmp.Equal(got, []string{"tools/call[t] ok root=0 rounds=0:root,1:strong"}) {
		t.Errorf("operations after = %v", got)
	}
}

func TestSummary(t *testing.T) {
	t.Parallel()
	var steps []step
	for i := 1; i <= 20; i++ {
		id := string(rune('a' + i - 1))
		steps = append(steps, c2s(0, req(`"`+id+`"`, "tools/call", `{"name":"t"}`)))
		if i == 20 {
			steps = append(steps, s2c(100, errRes(`"`+id+`"`, -1, "x")))
			continue
		}
		steps = append(steps, s2c(i, res(`"`+id+`"`, `{"content":[],"isError":`+map[bool]string{true: "true", false: "false"}[i == 1]+`}`)))
	}
	steps = append(steps, c2s(0, req("1", "tools/list", "")), c2s(0, req("2", "tools/call", `{"name":"u"}`)))
	snap := load(t, steps)
	want := Summary{
		Methods: []Stat{
			{Name: "tools/call", Count: 21, Rounds: 21, Errors: 2, P50MS: 10, P95MS: 19, P99MS: 100},
			{Name: "tools/list", Count: 1, Rounds: 1},
		},
		Tools: []Stat{
			{Name: "t", Count: 20, Rounds: 20, Errors: 2, P50MS: 10, P95MS: 19, P99MS: 100},
			{Name: "u", Count: 1, Rounds: 1},
		},
	}
	if diff := cmp.Diff(want, snap.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []float64
		p    float64
		want float64
	}{
		{nil, 50, 0},
		{[]float64{7}, 99, 7},
		{[]float64{1, 2, 3, 4}, 50, 2},
		{[]float64{1, 2, 3, 4}, 75, 3},
		{[]float64{1, 2, 3, 4}, 76, 4},
		{[]float64{1, 2, 3, 4}, 100, 4},
		{[]float64{1, 2, 3, 4}, 0, 1},
	}
	for _, tt := range tests {
		if got := percentile(tt.in, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tt.in, tt.p, got, tt.want)
		}
	}
}
