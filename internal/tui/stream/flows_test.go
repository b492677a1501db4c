package stream

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// selected returns the method column's idea of the selected row: its kind
// and call (or line) index.
func selected(m Model) (kind, int32) {
	r, ok := m.current()
	if !ok {
		return 0, -1
	}
	return r.kind, r.idx
}

func TestFilterElicitDecline(t *testing.T) {
	t.Parallel()
	for _, fx := range []struct {
		name string
		want []int32 // the root calls shown
	}{
		{"elicit-seed", []int32{4}},
		{"elicit-ledger-edges", []int32{2}},
	} {
		t.Run(fx.name, func(t *testing.T) {
			t.Parallel()
			m, _ := tuitest.Send(screen(t, fx.name, 120, 40), "/", "e", "l", "i", "c", "i", "t", ":", "d", "e", "c", "l", "i", "n", "e", "enter")
			var got []int32
			for _, r := range m.ix.rows {
				got = append(got, r.idx)
			}
			if diff := cmp.Diff(fx.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if m.Filter() != "elicit:decline" || m.Capturing() {
				t.Errorf("filter %q capturing %v", m.Filter(), m.Capturing())
			}
		})
	}
}

func TestBadFilterKeepsRows(t *testing.T) {
	t.Parallel()
	m, _ := tuitest.Send(screen(t, "elicit-seed", 80, 24), "/", "e", "l", "i", "c", "i", "t", ":", "d", "e", "c", "l", "i", "n", "e", "enter")
	before := append([]row(nil), m.ix.rows...)
	m, _ = tuitest.Send(m, "/", "ctrl+u", "s", "t", "a", "t", "u", "s", ":", "o", "k", "k", "enter")
	if diff := cmp.Diff(before, m.ix.rows, cmp.AllowUnexported(row{})); diff != "" {
		t.Errorf("a bad filter changed the rows (-before +after):\n%s", diff)
	}
	want := `bad filter: status:"okk" at column 8: want one of ok, error, tool-error, input-required, pending, cancelled, late`
	if m.barErr != want || !m.Capturing() || m.Filter() != "elicit:decline" {
		t.Errorf("error %q capturing %v filter %q", m.barErr, m.Capturing(), m.Filter())
	}
	for _, bad := range []string{`"`, `!`, `slow:>`, `tool:`, `zzz:1`, `id:"a`} {
		m, _ := tuitest.Send(screen(t, "elicit-seed", 80, 24), "/")
		m.bar = bad
		m, _ = tuitest.Send(m, "enter")
		if m.barErr == "" {
			t.Errorf("filter %q: no error", bad)
		}
		checkSize(t, m.View(), 80, 24)
	}
}

func TestIDFindsRounds(t *testing.T) {
	t.Parallel()
	m, _ := tuitest.Send(screen(t, "mrtr-chain", 120, 40), "/", "i", "d", ":", "c", "-", "4", "2", "enter")
	if len(m.ix.rows) != 1 || m.ix.rows[0].idx != 1 {
		t.Fatalf("id:c-42 rows %v, want the operation rooted at call 1", m.ix.rows)
	}
	m, _ = tuitest.Send(m, "right")
	if len(m.ix.rows) != 4 {
		t.Errorf("expanded: %d rows, want the operation and its 3 rounds", len(m.ix.rows))
	}
}

func TestExpandCollapse(t *testing.T) {
	t.Parallel()
	m, _ := tuitest.Send(screen(t, "mrtr-chain", 120, 40), "g", "j")
	for _, tc := range []struct {
		key  string
		rows int
		kind kind
		idx  int32
	}{
		{"right", 6, rowCall, 1},
		{"right", 6, rowCall, 1},
		{"j", 6, rowRound, 1},
		{"j", 6, rowRound, 2},
		{"left", 3, rowCall, 1},
		{"space", 6, rowCall, 1},
		{"space", 3, rowCall, 1},
		{"g", 3, rowCall, 0},
		{"space", 3, rowCall, 0}, // not an operation
	} {
		m, _ = tuitest.Send(m, tc.key)
		k, idx := selected(m)
		if len(m.ix.rows) != tc.rows || k != tc.kind || idx != tc.idx {
			t.Errorf("after %s: %d rows, selected %d/%d; want %d rows, %d/%d", tc.key, len(m.ix.rows), k, idx, tc.rows, tc.kind, tc.idx)
		}
	}
}

func TestJump(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "mrtr-chain")
	for _, tc := range []struct {
		name     string
		filter   string
		msg      ui.JumpMsg
		kind     kind
		idx      int32
		status   string
		filtered string
	}{
		{"root", "", ui.JumpMsg{Call: 1}, rowCall, 1, "", ""},
		{"round expands", "", ui.JumpMsg{Call: 2}, rowRound, 2, "", ""},
		{"hidden clears the filter", "id:d-1", ui.JumpMsg{Call: 4}, rowCall, 4, "filter cleared to show call 4", ""},
		{"hidden round", "id:d-1", ui.JumpMsg{Call: 3}, rowRound, 3, "filter cleared to show call 3", ""},
		{"shown keeps the filter", "tool:deploy*", ui.JumpMsg{Call: 2}, rowRound, 2, "", "tool:deploy*"},
		{"request seq", "", ui.JumpMsg{Seq: d.Snap.Calls.At(3).RequestSeq}, rowRound, 3, "", ""},
		{"response seq", "", ui.JumpMsg{Seq: d.Snap.Calls.At(2).ResponseSeq}, rowRound, 2, "", ""},
		{"unknown call", "", ui.JumpMsg{Call: 99}, rowCall, 4, "call 99 not found", ""},
		{"unknown seq", "", ui.JumpMsg{Seq: 999}, rowCall, 4, "frame 999 not found", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := New(ui.NewTheme(true)).SetSize(120, 40).SetData(d).apply(tc.filter)
			m, _ = m.Update(tc.msg)
			k, idx := selected(m)
			if k != tc.kind || idx != tc.idx || m.status != tc.status || m.Filter() != tc.filtered {
				t.Errorf("selected %d/%d, status %q, filter %q; want %d/%d, %q, %q", k, idx, m.status, m.Filter(), tc.kind, tc.idx, tc.status, tc.filtered)
			}
			if tc.status == "" && m.follow {
				t.Error("a jump left follow mode on")
			}
		})
	}
}

// TestJumpNested jumps to a nested legacy request the filter hides.
func TestJumpNested(t *testing.T) {
	t.Parallel()
	m := screen(t, "legacy-2025-11-25", 80, 24).apply("method:initialize")
	m, _ = m.Update(ui.JumpMsg{Call: 2})
	if k, idx := selected(m); k != rowChild || idx != 2 || m.status != "filter cleared to show call 2" {
		t.Errorf("selected %d/%d status %q", k, idx, m.status)
	}
}

// legacySteps returns the steps of the legacy fixture.
func legacySteps(t *testing.T) []tuitest.Step {
	return tuitest.ReadTranscript(t, tuitest.Transcript("legacy-2025-11-25"))
}

func TestFollowPauseResume(t *testing.T) {
	t.Parallel()
	steps := legacySteps(t)
	// The first Data stops before the server's two elicitation requests.
	d1 := tuitest.Data(t, tuitest.Capture(t, "legacy", steps[:4], false))
	d2 := tuitest.Data(t, tuitest.Capture(t, "legacy", steps, false))
	m := New(ui.NewTheme(true)).SetSize(80, 24).SetData(d1)
	if k, idx := selected(m); k != rowCall || idx != 1 || !m.Following() {
		t.Fatalf("first Data: selected %d/%d following %v", k, idx, m.Following())
	}
	followed := m.SetData(d2)
	if k, idx := selected(followed); k != rowChild || idx != 3 {
		t.Errorf("following: selected %d/%d, want the last nested request 3", k, idx)
	}
	paused, _ := tuitest.Send(m, "k")
	paused = paused.SetData(d2)
	if k, idx := selected(paused); k != rowCall || idx != 0 || paused.Following() {
		t.Errorf("paused: selected %d/%d following %v, want call 0 kept", k, idx, paused.Following())
	}
	resumed, _ := tuitest.Send(paused, "G")
	if k, idx := selected(resumed); k != rowChild || idx != 3 || !resumed.Following() {
		t.Errorf("G: selected %d/%d following %v", k, idx, resumed.Following())
	}
}

// TestPendingTurnsAccept: the elicitation of call 1 shows pending until the
// client's answer, then accept, without the row being rebuilt.
func TestPendingTurnsAccept(t *testing.T) {
	t.Parallel()
	steps := legacySteps(t)
	d1 := tuitest.Data(t, tuitest.Capture(t, "legacy", steps[:5], false))
	d2 := tuitest.Data(t, tuitest.Capture(t, "legacy", steps[:6], false))
	m := New(ui.NewTheme(true)).SetSize(120, 10).SetData(d1).apply("elicit:pending")
	if len(m.ix.rows) != 2 {
		t.Fatalf("elicit:pending shows %d rows, want call 1 and its request", len(m.ix.rows))
	}
	m = m.SetData(d2)
	if len(m.ix.rows) != 0 {
		t.Errorf("after the answer elicit:pending shows %d rows", len(m.ix.rows))
	}
	m = m.apply("elicit:accept")
	if len(m.ix.rows) != 2 {
		t.Errorf("elicit:accept shows %d rows", len(m.ix.rows))
	}
}

// withLines is the legacy fixture with a notification, a stderr line and
// a note, as the source reports them.
func withLines(t *testing.T) ui.Data {
	d := tuitest.Fixture(t, "legacy-2025-11-25")
	at := d.Snap.Session.Start
	d.Lines = []ui.Line{
		{Kind: ui.LineNotification, Seq: 3, Time: at, Dir: capture.C2S, Method: "notifications/initialized", Call: -1},
		{Kind: ui.LineStderr, Seq: 4, Time: at, Dir: capture.S2C, Text: "server: booking \x1b[31mred\x1b[0m", Call: -1},
		{Kind: ui.LineNotification, Seq: 9, Time: at, Dir: capture.S2C, Method: "notifications/elicitation/complete", Call: -1},
		{Kind: ui.LineNote, Seq: 10, Time: at, Note: "server-exit", Text: "exit 0", Call: -1},
	}
	return d
}

func TestToggleLines(t *testing.T) {
	t.Parallel()
	m := New(ui.NewTheme(true)).SetSize(120, 24).SetData(withLines(t))
	for _, tc := range []struct {
		key   string
		rows  int
		kinds []kind
	}{
		{"", 4, []kind{rowCall, rowCall, rowChild, rowChild}},
		{"n", 6, []kind{rowCall, rowLine, rowCall, rowChild, rowChild, rowLine}},
		{"s", 8, []kind{rowCall, rowLine, rowCall, rowChild, rowChild, rowLine, rowLine, rowLine}},
		{"n", 6, []kind{rowCall, rowCall, rowChild, rowChild, rowLine, rowLine}},
		{"s", 4, []kind{rowCall, rowCall, rowChild, rowChild}},
	} {
		if tc.key != "" {
			m, _ = tuitest.Send(m, tc.key)
		}
		var kinds []kind
		for _, r := range m.ix.rows {
			kinds = append(kinds, r.kind)
		}
		if diff := cmp.Diff(tc.kinds, kinds); diff != "" {
			t.Errorf("after %q (-want +got):\n%s", tc.key, diff)
		}
	}
	m, _ = tuitest.Send(m, "/", "c", "o", "m", "p", "l", "e", "t", "e", "enter")
	if len(m.ix.rows) != 0 {
		t.Errorf("free text over hidden lines shows %d rows", len(m.ix.rows))
	}
	m, _ = m.Update(ui.JumpMsg{Seq: 9})
	if k, idx := selected(m); k != rowLine || idx != 2 || !m.notes {
		t.Errorf("jump to the notification: selected %d/%d notes %v", k, idx, m.notes)
	}
}

func TestLinesGoldens(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, _ := tuitest.Send(New(ui.NewTheme(true)).SetSize(size[0], size[1]).SetData(withLines(t)), "n", "s")
		v := m.View()
		checkSize(t, v, size[0], size[1])
		golden(t, "lines-"+sizeName(size), v)
	}
}

func TestResize(t *testing.T) {
	t.Parallel()
	m, _ := tuitest.Send(screen(t, "elicit-ledger-edges", 120, 40), "g", "space", "n", "s", "/", "x")
	for _, size := range [][2]int{{40, 10}, {1, 1}, {0, 0}, {2, 5}, {10, 3}, {200, 2}, {80, 24}} {
		m = m.SetSize(size[0], size[1])
		checkSize(t, m.View(), size[0], size[1])
		m, _ = tuitest.Send(m, "esc", "k", "j", "G")
		checkSize(t, m.View(), size[0], size[1])
	}
	empty := New(ui.NewTheme(true))
	for _, size := range [][2]int{{40, 10}, {1, 1}, {0, 0}} {
		e, _ := tuitest.Send(empty.SetSize(size[0], size[1]), "j", "k", "g", "G", "space", "enter", "n")
		checkSize(t, e.View(), size[0], size[1])
		e, _ = e.Update(ui.JumpMsg{Call: 3})
		checkSize(t, e.View(), size[0], size[1])
	}
}

// TestSlowOperation: an operation whose rounds are each fast but which
// took long in sum (the user's waits) is found by slow:.
func TestSlowOperation(t *testing.T) {
	t.Parallel()
	m := screen(t, "mrtr-chain", 120, 40).apply("slow:>1s")
	var got []int32
	for _, r := range m.ix.rows {
		got = append(got, r.idx)
	}
	if diff := cmp.Diff([]int32{1, 4}, got); diff != "" {
		t.Errorf("slow:>1s rows (-want +got):\n%s", diff)
	}
}

// TestJumpCancelSeq: a frame that cancelled a call selects the call.
func TestJumpCancelSeq(t *testing.T) {
	t.Parallel()
	m := screen(t, "cancel-late", 120, 40)
	c := m.data.Snap.Calls.At(2)
	if c.CancelSeq == 0 {
		t.Fatal("call 2 of cancel-late was not cancelled")
	}
	m, _ = m.Update(ui.JumpMsg{Seq: c.CancelSeq})
	// The source keeps the notifications/cancelled frame as a line: the
	// jump lands on that very frame, which names call 2.
	k, idx := selected(m)
	if k != rowLine || m.data.Lines[idx].Seq != c.CancelSeq || m.data.Lines[idx].Call != 2 {
		t.Errorf("selected %d/%d, want the line of seq %d (the cancellation of call 2)", k, idx, c.CancelSeq)
	}
}
