package store

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// rollup holds what a snapshot derives from every call: the eras and
// protocol versions in order of first use, the statistics per method and
// per tool, and the MRTR operations whose calls changed. The call table
// keeps it up to date as it packs each changed call, and the store as it
// finishes each changed operation (setOp), so that a snapshot costs what
// changed since the last one, not a pass over every call.
type rollup struct {
	eras, versions firstUse
	// methods and tools count the client's calls; server the server's
	// requests to the client, per method (CountCalls's split).
	methods, tools, server groups
	// dirtyOps lists the operations one of whose calls changed since they
	// were last finished; opMarked has bit i set while i is listed.
	dirtyOps []int
	opMarked []uint64
	// ops[i] is what operation i adds to the statistics, as last set.
	ops []opEntry
}

// opEntry is an operation's part of the statistics: one call of its
// method (and tool) counting all its rounds.
type opEntry struct {
	method, target string
	entry
}

// update accounts for call i changing from was to now (fresh: a new call,
// was is nothing). ns names the strings of both.
func (r *rollup) update(i int, was, now *packed, fresh bool, ns names) {
	if fresh || was.era != now.era {
		if !fresh {
			r.eras.remove(ns.str(was.era), i)
		}
		r.eras.add(ns.str(now.era), i)
	}
	if fresh || was.protocolVersion != now.protocolVersion {
		if !fresh {
			r.versions.remove(ns.str(was.protocolVersion), i)
		}
		r.versions.add(ns.str(now.protocolVersion), i)
	}
	if fresh || was.method != now.method || was.target != now.target || was.status != now.status ||
		was.responseSeq != now.responseSeq || was.durationMS != now.durationMS || was.operation != now.operation ||
		was.negotiation != now.negotiation || was.dir != now.dir {
		if !fresh {
			r.tally(was, ns, -1)
		}
		r.tally(now, ns, 1)
	}
	r.markOp(int(now.operation))
	if !fresh && was.operation != now.operation {
		r.markOp(int(was.operation))
	}
}

// tally adds (sign 1) or removes (sign -1) a call's part of the statistics
// (summary.go's rules): one call of one round, unless it is a round of an
// operation, which setOp counts instead.
func (r *rollup) tally(p *packed, ns names, sign int) {
	if p.operation >= 0 {
		return
	}
	e := entry{status: ns.str(p.status), answered: p.responseSeq != 0, durationMS: p.durationMS, rounds: 1, negotiation: p.negotiation}
	if capture.Dir(ns.str(p.dir)) == capture.S2C {
		r.server.tally(ns.str(p.method), &e, sign)
		return
	}
	r.tallyEntry(ns.str(p.method), ns.str(p.target), &e, sign)
}

// tallyEntry adds or removes e under its method, and its tool for
// tools/call.
func (r *rollup) tallyEntry(method, target string, e *entry, sign int) {
	r.methods.tally(method, e, sign)
	if method == mcp.MethodToolsCall {
		r.tools.tally(target, e, sign)
	}
}

// setOp replaces operation i's part of the statistics with op's, as it is
// once finished; answered reports whether its last round is answered.
func (r *rollup) setOp(i int, op *Operation, answered bool) {
	if n := i + 1; len(r.ops) < n {
		r.ops = append(r.ops, make([]opEntry, n-len(r.ops))...)
	}
	now := opEntry{method: op.Method, target: op.Target, entry: entry{
		status: op.Status, answered: answered, durationMS: op.DurationMS, rounds: len(op.Rounds),
	}}
	was := &r.ops[i]
	if *was == now {
		return
	}
	if was.rounds > 0 {
		r.tallyEntry(was.method, was.target, &was.entry, -1)
	}
	r.tallyEntry(now.method, now.target, &now.entry, 1)
	*was = now
}

func (r *rollup) markOp(op int) {
	if op < 0 {
		return
	}
	if w := op/64 + 1; len(r.opMarked) < w {
		r.opMarked = append(r.opMarked, make([]uint64, w-len(r.opMarked))...)
	}
	if r.opMarked[op/64]&(1<<(op%64)) == 0 {
		r.opMarked[op/64] |= 1 << (op % 64)
		r.dirtyOps = append(r.dirtyOps, op)
	}
}

// takeDirtyOps returns the operations marked since the last call and
// unmarks them.
func (r *rollup) takeDirtyOps() []int {
	out := r.dirtyOps
	for _, op := range out {
		r.opMarked[op/64] &^= 1 << (op % 64)
	}
	r.dirtyOps = r.dirtyOps[len(out):]
	return out
}

// summary returns the statistics, each list sorted by name.
func (r *rollup) summary() Summary {
	return Summary{Methods: r.methods.stats(), Tools: r.tools.stats(), Server: r.server.stats()}
}

// firstUse tracks the distinct non-empty values of a call field and the
// first call using each, so that they can be listed in order of first use.
type firstUse struct {
	m map[string]*use
	// stale is set when the first call of a value stopped using it while
	// others still do: list must then be told the first use again.
	stale bool
}

type use struct{ n, first int }

func (f *firstUse) add(v string, i int) {
	if v == "" {
		return
	}
	if f.m == nil {
		f.m = make(map[string]*use)
	}
	u, ok := f.m[v]
	if !ok {
		f.m[v] = &use{n: 1, first: i}
		return
	}
	u.n++
	u.first = min(u.first, i)
}

func (f *firstUse) remove(v string, i int) {
	u, ok := f.m[v]
	if !ok {
		return
	}
	u.n--
	switch {
	case u.n == 0:
		delete(f.m, v)
	case u.first == i:
		f.stale = true
	}
}

// list returns the values in order of first use, nil when there are none;
// field reads the value from a call, for a stale set to find first uses
// again.
func (f *firstUse) list(calls *Calls, field func(*Call) string) []string {
	if f.stale {
		for _, u := range f.m {
			u.first = calls.Len()
		}
		for i := range calls.Len() {
			c := calls.At(i)
			if u, ok := f.m[field(&c)]; ok {
				u.first = min(u.first, i)
			}
		}
		f.stale = false
	}
	if len(f.m) == 0 {
		return nil
	}
	out := make([]string, 0, len(f.m))
	for v := range f.m {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(f.m[a].first, f.m[b].first) })
	return out
}

// groups are the statistics of calls grouped by a name.
type groups struct {
	m map[string]*group
}

func (g *groups) tally(name string, e *entry, sign int) {
	gr, ok := g.m[name]
	if !ok {
		if g.m == nil {
			g.m = make(map[string]*group)
		}
		gr = &group{}
		g.m[name] = gr
	}
	gr.count += sign
	gr.rounds += sign * e.rounds
	if Failed(e.status) && !e.negotiation {
		gr.errors += sign
	}
	if e.answered {
		if sign > 0 {
			gr.durations.insert(e.durationMS)
		} else {
			gr.durations.remove(e.durationMS)
		}
	}
	if gr.count == 0 {
		delete(g.m, name)
	}
}

// stats returns a Stat per group, sorted by name.
func (g *groups) stats() []Stat {
	if len(g.m) == 0 {
		return nil
	}
	out := make([]Stat, 0, len(g.m))
	for name, gr := range g.m {
		d := &gr.durations
		out = append(out, Stat{
			Name: name, Count: gr.count, Rounds: gr.rounds, Errors: gr.errors,
			P50MS: d.percentile(50), P95MS: d.percentile(95), P99MS: d.percentile(99),
		})
	}
	slices.SortFunc(out, func(a, b Stat) int { return strings.Compare(a.Name, b.Name) })
	return out
}
