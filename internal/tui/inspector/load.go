package inspector

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// plan is which calls the inspector shows for a call: the rounds of its
// operation (or the call alone) and the legacy requests nested under them.
type plan struct {
	rounds []int // call indexes, in round order
	start  int   // the round of the call the inspector was opened on
	// nested[r] lists the calls whose Parent is rounds[r].
	nested [][]int
	// seen is the number of calls scanned for nested requests.
	seen int
}

// planOf works out the plan of call c in d; it walks the calls after the
// first round once, so it runs inside the load command, not in Update.
func planOf(d ui.Data, c int) (plan, error) {
	if d.Snap == nil || c < 0 || c >= d.Snap.Calls.Len() {
		return plan{}, fmt.Errorf("no call %d in this session", c)
	}
	call := d.Snap.Calls.At(c)
	p := plan{rounds: []int{c}}
	if op := call.Operation; op >= 0 && op < d.Snap.Operations.Len() {
		p.rounds = p.rounds[:0]
		for k, r := range d.Snap.Operations.At(op).Rounds {
			if r.Call == c {
				p.start = k
			}
			p.rounds = append(p.rounds, r.Call)
		}
	}
	if len(p.rounds) == 0 { // an operation without rounds: show the call alone
		p.rounds = []int{c}
	}
	p.nested = make([][]int, len(p.rounds))
	p.scan(d.Snap, p.rounds[0]+1)
	return p, nil
}

// scan adds the nested requests among calls from..Len-1.
func (p *plan) scan(s *store.Snapshot, from int) {
	n := s.Calls.Len()
	for i := from; i < n; i++ {
		par := s.Calls.At(i).Parent
		if par < 0 {
			continue
		}
		for r, rc := range p.rounds {
			if rc == par {
				p.nested[r] = append(p.nested[r], i)
			}
		}
	}
	p.seen = max(p.seen, n)
}

// frame is one frame read back from the capture for a pane.
type frame struct {
	seq uint64
	// lay is the body laid out unfolded (built here, not in Update).
	lay *layout
	// raw is the body as captured (compact JSON, text or bytes), for copy.
	raw  string
	dir  capture.Dir
	time time.Time
	err  string // why the frame could not be read
}

// LoadedMsg carries the frames the command of Init or Refresh read back to
// Update. Its fields are the inspector's own; the app only routes it to the
// inspector (even under an overlay), which ignores one for another call.
type LoadedMsg struct {
	call   int
	gen    uint64
	plan   plan
	err    string
	frames map[uint64]*frame
}

// loadCmd reads the frames of call c's plan from d, skipping the seqs in
// have (already loaded, kept with their folds).
func loadCmd(d ui.Data, c int, have map[uint64]bool) tea.Cmd {
	return func() tea.Msg {
		msg := LoadedMsg{call: c, gen: d.Gen, frames: map[uint64]*frame{}}
		p, err := planOf(d, c)
		if err != nil {
			msg.err = err.Error()
			return msg
		}
		msg.plan = p
		for _, rc := range p.rounds {
			call := d.Snap.Calls.At(rc)
			for _, seq := range []uint64{call.RequestSeq, call.ResponseSeq} {
				if seq != 0 && !have[seq] && msg.frames[seq] == nil {
					msg.frames[seq] = readFrame(d, seq)
				}
			}
		}
		return msg
	}
}

// readFrame reads and parses frame seq.
func readFrame(d ui.Data, seq uint64) *frame {
	f := &frame{seq: seq}
	rec, err := d.Frame(seq)
	if err != nil {
		f.err = err.Error()
		return f
	}
	f.dir, f.time = rec.Dir, rec.Time
	switch {
	case len(rec.Msg) > 0:
		f.raw = string(rec.Msg)
		t, err := parseJSON(f.raw)
		if err != nil {
			t = textTree(f.raw, "not shown as JSON: "+err.Error())
		}
		f.lay = newLayout(t, nil)
	case rec.B64 != nil:
		f.raw = string(rec.B64)
		f.lay = newLayout(textTree(f.raw, "not UTF-8: shown escaped"), nil)
	default:
		f.raw = rec.Text
		f.lay = newLayout(textTree(f.raw, "not JSON: shown as text"), nil)
	}
	return f
}
