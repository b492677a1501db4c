package inspector

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// prefix is the Data of the first n frames of a transcript, still live.
func prefix(t *testing.T, name string, n int) ui.Data {
	t.Helper()
	steps := tuitest.ReadTranscript(t, tuitest.Transcript(name))
	return tuitest.Data(t, tuitest.Capture(t, name, steps[:n], false))
}

func TestSetDataReloads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		fixture   string
		frames    int // in the older Data
		call      int
		viaUpdate bool
		check     func(t *testing.T, m Model)
	}{
		{"the response arrives", "elicit-seed", 3, 1, false, func(t *testing.T, m Model) {
			m, _ = tuitest.Send(m, "tab")
			if f := m.curFrame(); f == nil || f.lay == nil || f.seq != 4 {
				t.Errorf("response pane shows %+v, want frame 4", f)
			}
		}},
		{"a round is added", "elicit-seed", 2, 0, true, func(t *testing.T, m Model) {
			if len(m.plan.rounds) != 2 || m.round != 0 {
				t.Fatalf("rounds %v, shown %d; want 2 rounds, the first shown", m.plan.rounds, m.round)
			}
			m, _ = tuitest.Send(m, "]")
			if f := m.curFrame(); f == nil || f.seq != 3 {
				t.Errorf("round 2 shows %+v, want frame 3", f)
			}
		}},
		{"nested requests appear", "legacy-2025-11-25", 4, 1, true, func(t *testing.T, m Model) {
			if got := m.nestedCalls(); len(got) != 2 {
				t.Errorf("nested %v, want 2 calls", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := open(t, prefix(t, tt.fixture, tt.frames), tt.call, 80, 24)
			m, _ = tuitest.Send(m, "j") // a cursor the reload must keep
			full := fixture(t, tt.fixture)
			if cmd := m.SetData(m.data).Refresh(); cmd != nil {
				t.Fatal("the same Data asks for a reload")
			}
			var next Model
			if tt.viaUpdate {
				var cmd ui.DataMsg = ui.DataMsg{Data: full}
				m2, c := m.Update(cmd)
				next = load(t, m2, c)
			} else {
				m2 := m.SetData(full)
				next = load(t, m2, m2.Refresh())
			}
			if c := next.SetData(full).Refresh(); c != nil {
				t.Error("still stale after the reload")
			}
			if got := whereOf(next); got.Cursor != 1 {
				t.Errorf("the reload moved the cursor to %d", got.Cursor)
			}
			tt.check(t, next)
		})
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	m := open(t, fixture(t, "elicit-seed"), 99, 80, 24)
	if m.err == "" {
		t.Error("call 99 of 6 loaded without an error")
	}
	checkSafe(t, m.View(), 80)
	// A load for another call (an older inspector's) is ignored.
	d := fixture(t, "elicit-seed")
	other := New(ui.NewTheme(true), d, 2).Init()()
	m = open(t, d, 1, 80, 24)
	m2, _ := m.Update(other)
	if m2.View() != m.View() {
		t.Error("a load for call 2 changed the inspector of call 1")
	}
}

// TestReadFrameNotJSON reads the frames of invalid-frames the way the
// inspector does: a line that is not JSON, bytes that are not UTF-8 and a
// cut JSON line show as escaped text with a note; a line with spaces
// around its JSON shows as JSON.
func TestReadFrameNotJSON(t *testing.T) {
	t.Parallel()
	d := fixture(t, "invalid-frames")
	m := Model{th: ui.NewTheme(true), w: 60}
	tests := []struct {
		seq   uint64
		note  string
		first string
	}{
		{2, "not JSON: shown as text", "Server starting... (not JSON)"},
		{3, "not UTF-8: shown escaped", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"\xff\xfe bad utf-8\"}}"},
		{4, "not JSON: shown as text", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","te`},
		{7, "", "{"},
	}
	for _, tt := range tests {
		f := readFrame(d, tt.seq)
		if f.err != "" {
			t.Fatalf("frame %d: %s", tt.seq, f.err)
		}
		got := plain(f.lay)
		if f.lay.t.note != tt.note || got[0] != tt.first {
			t.Errorf("frame %d: note %q, first line %q; want %q, %q", tt.seq, f.lay.t.note, got[0], tt.note, tt.first)
		}
		for k := range f.lay.lines {
			checkSafe(t, m.jsonRow(f.lay, k, false), m.w)
		}
	}
	if f := readFrame(d, 999); f.err == "" || f.lay != nil {
		t.Errorf("frame 999 read without an error: %+v", f)
	}
}

// TestSetDataUnrelated checks calls that do not concern the inspected one
// ask for no reload, and are not scanned again by the next Data.
func TestSetDataUnrelated(t *testing.T) {
	t.Parallel()
	m := open(t, prefix(t, "legacy-2025-11-25", 4), 0, 80, 24) // initialize, answered
	m = m.SetData(fixture(t, "legacy-2025-11-25"))
	if cmd := m.Refresh(); cmd != nil {
		t.Error("newer calls unrelated to the call ask for a reload")
	}
	if m.plan.seen != 4 {
		t.Errorf("scanned %d calls, want all 4", m.plan.seen)
	}
}
