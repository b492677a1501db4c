package diff

import (
	"math"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// compareCalls matches the calls of a and b and lists what differs.
func compareCalls(a, b []call, opts *Options) Calls {
	out := Calls{}
	// Each key's calls of b, in order; a call of a takes the first left.
	queue := map[string][]int{}
	for j := range b {
		k := b[j].key()
		queue[k] = append(queue[k], j)
	}
	matched := make([]bool, len(b))
	for i := range a {
		k := a[i].key()
		q := queue[k]
		if len(q) == 0 {
			out.OnlyA = append(out.OnlyA, a[i].ref)
			continue
		}
		j := q[0]
		queue[k] = q[1:]
		matched[j] = true
		out.Matched++
		if a[i].mrtr || b[j].mrtr {
			out.Operations++
		}
		if d, ok := compareCall(&a[i], &b[j], opts); ok {
			out.Changed = append(out.Changed, d)
		}
		if timed(a[i].ref.Method) && slower(a[i].ms, b[j].ms, opts) {
			out.Slower = append(out.Slower, Slower{CallRef: a[i].ref, BIndex: b[j].ref.Index, OldMS: roundMS(a[i].ms), NewMS: roundMS(b[j].ms)})
		}
	}
	for j := range b {
		if !matched[j] {
			out.OnlyB = append(out.OnlyB, b[j].ref)
		}
	}
	return out
}

// compareCall describes how b's outcome differs from a's; ok is false when
// it does not.
func compareCall(a, b *call, opts *Options) (CallDelta, bool) {
	d := CallDelta{CallRef: a.ref, BIndex: b.ref.Index, OldStatus: a.status, NewStatus: b.status,
		OldRounds: a.rounds, NewRounds: b.rounds}
	fa, fb := failure(a), failure(b)
	switch {
	case fa == "" && fb != "":
		d.Error, d.NewError = ErrorAppeared, fb
	case fa != "" && fb == "":
		d.Error, d.OldError = ErrorGone, fa
	case fa != fb:
		d.Error, d.OldError, d.NewError = ErrorChanged, fa, fb
	}
	if a.result != nil && b.result != nil {
		deltas, err := JSON(a.result, b.result)
		if err != nil {
			// Both results came out of decoded frames; one that is not
			// JSON after all differs as a whole.
			deltas = []Delta{{Op: OpChanged, Old: string(a.result), New: string(b.result)}}
		}
		d.Result = ignore(deltas, opts.IgnorePaths)
	}
	differs := d.Error != "" || len(d.Result) > 0 || a.status != b.status || a.rounds != b.rounds
	return d, differs
}

// failure describes how a call failed; "" when it did not.
func failure(c *call) string {
	switch {
	case c.status == store.StatusToolError:
		return "tool error"
	case c.err != nil:
		return strconv.FormatInt(c.err.Code, 10) + " " + c.err.Message
	case c.status == store.StatusError:
		return "error"
	}
	return ""
}

// slower reports whether newMS grew from oldMS by the factor
// opts.SlowerThan and by opts.MinSlowerMS or more. A loaded machine
// adds its delays to a call whatever the call's length (tens of
// milliseconds that a 5ms call "doubles" by), so the floor bounds the
// growth, not only the new duration; a server that got slower grows by
// more than the machine's hiccups.
func slower(oldMS, newMS float64, opts *Options) bool {
	if opts.SlowerThan <= 0 || oldMS <= 0 || newMS-oldMS < opts.MinSlowerMS {
		return false
	}
	return newMS >= oldMS*opts.SlowerThan
}

// timed reports whether the duration of a call of method is compared: not
// the handshake's (initialize, server/discover), whose first request waits
// on stdio for the server process to start, a time the machine (its load,
// its disk cache) sets rather than the server's answers.
func timed(method string) bool {
	return method != mcp.MethodInitialize && method != mcp.MethodDiscover
}

// roundMS rounds a duration in milliseconds to the microsecond: the
// clock's precision, not the float sum's digits (47.51431199999999).
func roundMS(v float64) float64 { return math.Round(v*1000) / 1000 }

// ignore drops the deltas at or under the pointers of paths.
func ignore(deltas []Delta, paths []string) []Delta {
	if len(paths) == 0 {
		return deltas
	}
	out := deltas[:0:0]
	for _, d := range deltas {
		if !covered(d.Path, paths) {
			out = append(out, d)
		}
	}
	return out
}

func covered(path string, paths []string) bool {
	for _, p := range paths {
		if path == p || strings.HasPrefix(path, p+"/") || p == "" {
			return true
		}
	}
	return false
}
