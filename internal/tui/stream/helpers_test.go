package stream

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

func itoa(n int) string { return strconv.Itoa(n) }

// calls returns the steps of n tools/call requests, each answered at
// once; every fifth is answered with a JSON-RPC error.
func calls(n int) []tuitest.Step {
	steps := make([]tuitest.Step, 0, 2*n)
	for i := 1; i <= n; i++ {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tool_%d","arguments":{}}}`, i, i%7)
		res := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, i)
		if i%5 == 0 {
			res = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32603,"message":"boom %d"}}`, i, i)
		}
		steps = append(steps,
			tuitest.Step{Dir: capture.C2S, After: time.Millisecond, Raw: []byte(req)},
			tuitest.Step{Dir: capture.S2C, After: time.Duration(i%9) * time.Millisecond, Raw: []byte(res)})
	}
	return steps
}

// state is what the tests compare of a Model.
type state struct {
	Sel, Off      int
	Rows          int
	Selected      int
	Follow        bool
	Editing       bool
	Bar, Applied  string
	BarErr        string
	Notes, Stderr bool
	Status        string
	ExpandedRoots int
}

// stateOf returns m's state.
func stateOf(m Model) state {
	return state{Sel: m.sel, Off: m.off, Rows: len(m.ix.rows), Selected: m.Selected(), Follow: m.follow,
		Editing: m.editing, Bar: m.bar, Applied: m.applied, BarErr: m.barErr, Notes: m.notes, Stderr: m.stderr,
		Status: m.status, ExpandedRoots: len(m.expanded)}
}
