package stream

import (
	"math"
	"slices"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/units"
)

// headline is what the header says of a session's calls, counted as every
// view a person reads counts them (Snapshot.CountCalls): an MRTR
// operation once, its retries as rounds, the server's requests apart;
// and the percentiles of the calls' durations, an operation's from its
// first request to its final answer, by nearest rank (as the store's
// Summary).
type headline struct {
	snap          *store.Snapshot // summed up
	calls, rounds int             // rounds: every client request, retries included
	server        int
	answered      int
	p50, p95      float64
}

// headlineOf sums snap up.
func headlineOf(snap *store.Snapshot) headline {
	h := headline{snap: snap}
	h.calls, h.server = snap.CountCalls()
	durs := make([]float64, 0, snap.Calls.Len())
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		if c.Dir == capture.S2C {
			continue
		}
		h.rounds++
		if c.Operation < 0 && c.ResponseSeq != 0 {
			durs = append(durs, c.DurationMS)
		}
	}
	for _, op := range snap.Operations.All() {
		if !op.End.IsZero() && op.Status != "input-required" {
			durs = append(durs, op.DurationMS)
		}
	}
	h.answered = len(durs)
	if len(durs) > 0 {
		slices.Sort(durs)
		rank := func(p float64) float64 {
			k := int(math.Ceil(p / 100 * float64(len(durs))))
			return durs[max(1, min(k, len(durs)))-1]
		}
		h.p50, h.p95 = rank(50), rank(95)
	}
	return h
}

// text is "9 calls (5 more rounds) · 1 server request · p50 12.0ms p95
// 1.20s", the parts with nothing to say left out.
func (h headline) text() string {
	t := plural(h.calls, "call", "calls")
	if more := h.rounds - h.calls; more > 0 {
		t += " (" + plural(more, "more round", "more rounds") + ")"
	}
	if h.server > 0 {
		t += " · " + plural(h.server, "server request", "server requests")
	}
	if h.answered > 0 {
		t += " · p50 " + units.Millis(h.p50) + " p95 " + units.Millis(h.p95)
	}
	return t
}

// plural is "1 call" or "3 calls".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
