package overlay

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// run returns the message cmd delivers, nil for none.
func run(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// ledgerData is a Data whose ledger has n rows, asked one a millisecond,
// row i rooted at call 2*i; every third row is still pending.
func ledgerData(n int) ui.Data {
	rows := make([]store.LedgerRow, n)
	t0 := tuitest.T0
	for i := range rows {
		r := store.LedgerRow{
			Root:  store.LedgerRoot{Call: 2 * i, Method: "tools/call", Target: fmt.Sprintf("tool_%d", i)},
			Round: 1, Key: "k", Era: store.LedgerMRTR, Mode: "form", Message: fmt.Sprintf("question %d", i),
			Fields: []store.LedgerField{{Name: "name", Type: "string", Required: true}},
			Status: store.LedgerAnswered, Action: "accept", AskedSeq: uint64(2*i + 2), AnsweredSeq: uint64(2*i + 3),
			AskedAt: t0.Add(time.Duration(i) * time.Millisecond), Call: 2 * i, Operation: i, WaitMS: 10, ToolMS: 2,
		}
		if i%3 == 2 {
			r.Status, r.Action, r.AnsweredSeq = store.LedgerPending, "", 0
		}
		rows[i] = r
	}
	snap := &store.Snapshot{Ledger: store.ListOf(rows)}
	snap.Session.Start = t0
	return ui.Data{Snap: snap, Live: true}
}

func TestUpdateKeys(t *testing.T) {
	t.Parallel()
	th := ui.NewTheme(true)
	d := ledgerData(100)
	// 80x24: title, header, 18 rows, 3 detail lines, the key footer.
	base := New(th, Ledger, d).SetSize(80, 24)
	at := func(sel int) Overlay {
		m := base
		for range sel {
			m, _ = m.Update(tuitest.Press("down"))
		}
		return m
	}
	for _, tc := range []struct {
		name             string
		from             Overlay
		msg              tea.Msg
		wantSel, wantTop int
	}{
		{"down", base, tuitest.Press("down"), 1, 0},
		{"j", base, tuitest.Press("j"), 1, 0},
		{"up at the top", base, tuitest.Press("up"), 0, 0},
		{"k", at(5), tuitest.Press("k"), 4, 0},
		{"down past the page", at(17), tuitest.Press("down"), 18, 1},
		{"pgdown", base, tuitest.Press("pgdown"), 17, 0},
		{"pgup", at(50), tuitest.Press("pgup"), 33, 33},
		{"G", base, tuitest.Press("G"), 99, 82},
		{"end", base, tuitest.Press("end"), 99, 82},
		{"g", at(50), tuitest.Press("g"), 0, 0},
		{"home", at(50), tuitest.Press("home"), 0, 0},
		{"wheel down drags the selection", base, tea.MouseWheelMsg{Button: tea.MouseWheelDown}, 3, 3},
		{"wheel up", at(50), tea.MouseWheelMsg{Button: tea.MouseWheelUp}, 47, 30},
		{"unbound key", at(3), tuitest.Press("x"), 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, cmd := tc.from.Update(tc.msg)
			if got := run(cmd); got != nil {
				t.Errorf("command sent %#v, want none", got)
			}
			if c := in(t, m).position(); c.sel != tc.wantSel || c.top != tc.wantTop {
				t.Errorf("sel, top = %d, %d, want %d, %d", c.sel, c.top, tc.wantSel, tc.wantTop)
			}
		})
	}
}

// TestBack checks that esc and q close every overlay.
func TestBack(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "elicit-seed")
	for _, kind := range []Kind{Ledger, Capabilities, Tools, Findings} {
		for _, k := range []string{"esc", "q"} {
			m := New(ui.NewTheme(true), kind, d).SetSize(80, 24)
			if _, cmd := m.Update(tuitest.Press(k)); run(cmd) != (ui.BackMsg{}) {
				t.Errorf("overlay %s, %s: command = %#v, want ui.BackMsg", kind, k, run(cmd))
			}
		}
	}
}
