package overlay

import (
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// enterAll presses enter on every row of m, from the first, and returns
// the messages the commands sent.
func enterAll(t *testing.T, m Overlay) []tea.Msg {
	t.Helper()
	var got []tea.Msg
	for i := range in(t, m).count() {
		if in(t, m).Selected() != i {
			t.Fatalf("selected %d, want %d", in(t, m).Selected(), i)
		}
		_, cmd := m.Update(tuitest.Press("enter"))
		got = append(got, run(cmd))
		m, _ = m.Update(tuitest.Press("down"))
	}
	return got
}

// TestLedgerJump checks that enter on a ledger row asks for its root
// call: the first round of the operation (MRTR) or the client call the
// server's request interrupted (legacy).
func TestLedgerJump(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fixture    string
		want       []tea.Msg
		wantTarget []string
	}{
		// Calls 0/1, 2/3 and 4/5 are the rounds of three operations.
		{"elicit-seed", []tea.Msg{ui.JumpMsg{Call: 0}, ui.JumpMsg{Call: 2}, ui.JumpMsg{Call: 4}},
			[]string{"create_account", "sync_calendar", "login_legacy"}},
		// Both legacy elicitations interrupted the one tools/call (call 0 is
		// initialize).
		{"legacy-2025-11-25", []tea.Msg{ui.JumpMsg{Call: 1}, ui.JumpMsg{Call: 1}},
			[]string{"book_table", "book_table"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			t.Parallel()
			d := tuitest.Fixture(t, tc.fixture)
			got := enterAll(t, New(ui.NewTheme(true), Ledger, d).SetSize(80, 24))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("jumps (-want +got):\n%s", diff)
			}
			for i, msg := range got {
				c := d.Snap.Calls.At(msg.(ui.JumpMsg).Call)
				if c.Method != "tools/call" || c.Target != tc.wantTarget[i] || c.Dir != "c2s" {
					t.Errorf("row %d jumps to %s %s (%s), want the client's tools/call %s", i, c.Method, c.Target, c.Dir, tc.wantTarget[i])
				}
			}
		})
	}
}

// TestFindingJump checks enter on the findings overlay: a rule's header
// jumps to its first finding, a finding to its call and frame, or to its
// frame alone when it concerns no call.
func TestFindingJump(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "duplicate-response")
	got := enterAll(t, New(ui.NewTheme(true), Findings, d).SetSize(80, 24))
	want := []tea.Msg{
		ui.JumpMsg{Call: 0, Seq: 3},  // duplicate-response (header)
		ui.JumpMsg{Call: 0, Seq: 3},  //   the second answer to id 1
		ui.JumpMsg{Call: -1, Seq: 4}, // response-without-request (header)
		ui.JumpMsg{Call: -1, Seq: 4}, //   id 42
		ui.JumpMsg{Call: -1, Seq: 5}, //   id 43
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jumps (-want +got):\n%s", diff)
	}
}

// TestNoJump checks that enter does nothing where there is nowhere to go.
func TestNoJump(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "catalog-drift")
	for _, kind := range []Kind{Capabilities, Tools} {
		m := New(ui.NewTheme(true), kind, d).SetSize(80, 24)
		if _, cmd := m.Update(tuitest.Press("enter")); cmd != nil {
			t.Errorf("overlay %s: enter sent %#v", kind, run(cmd))
		}
		for _, b := range m.Bindings() {
			if b.Help().Key == "enter" {
				t.Errorf("overlay %s lists enter among its active bindings", kind)
			}
		}
	}
	empty := New(ui.NewTheme(true), Ledger, d).SetSize(80, 24)
	if _, cmd := empty.Update(tuitest.Press("enter")); cmd != nil {
		t.Errorf("empty ledger: enter sent %#v", run(cmd))
	}
}

// TestPendingTurnsAccept feeds the ledger a Data read while the first
// question was still unanswered, then the whole session: the row turns
// from pending to accept and stays selected.
func TestPendingTurnsAccept(t *testing.T) {
	t.Parallel()
	steps := tuitest.ReadTranscript(t, tuitest.Transcript("elicit-seed"))
	early := tuitest.Data(t, tuitest.Capture(t, "elicit-seed", steps[:2], false))
	th := ui.NewTheme(true)
	m := New(th, Ledger, early).SetSize(120, 20)
	if r := early.Snap.Ledger.At(0); r.Status != "pending" {
		t.Fatalf("the prefix's row is %s, want pending", r.Status)
	}
	if got := rowsOf[ledgerRows](t, m).counts; got != (ledgerCounts{asked: 1, pending: 1, mrtr: 1}) {
		t.Errorf("early counts = %+v", got)
	}
	before := m.View()
	m = m.SetData(tuitest.Data(t, tuitest.Capture(t, "elicit-seed", steps[:6], false)))
	m, _ = m.Update(tuitest.Press("down")) // select the second question
	m = m.SetData(tuitest.Fixture(t, "elicit-seed"))
	if in(t, m).Selected() != 1 {
		t.Errorf("selected %d after SetData, want 1", in(t, m).Selected())
	}
	if got := rowsOf[ledgerRows](t, m).counts; got != (ledgerCounts{asked: 3, accept: 2, decline: 1, mrtr: 3}) {
		t.Errorf("final counts = %+v", got)
	}
	after := m.View()
	for _, c := range []struct {
		view, want string
	}{
		{before, th.Pending.Render("pending 1")},
		{after, th.Action("decline").Render("decline")},
		{after, th.OK.Render("accept 2")},
	} {
		if !contains(c.view, c.want) {
			t.Errorf("view lacks %q:\n%s", c.want, c.view)
		}
	}
	// The selected row keeps the pending colour (ANSI 5, SGR 35) on the
	// selection's background.
	if !regexp.MustCompile(`\x1b\[[0-9;]*\b35;[0-9;]*m\(pending\)`).MatchString(before) {
		t.Errorf("the pending row is not highlighted:\n%s", before)
	}
	if contains(after, "(pending)") {
		t.Errorf("a row is still pending:\n%s", after)
	}
}
