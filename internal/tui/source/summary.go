package source

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// tally sums up one session of a file for the hub: a store without frames
// (dropped once the session ends) and the activity of its frames.
type tally struct {
	path  string
	st    *store.Store
	act   activity
	last  time.Time // time of the last record
	dirty bool      // records since the last summary
}

func newTally(path string, h *capture.Record, reg *finding.Registry) *tally {
	t := &tally{path: path, st: session.NewStore(&session.Options{Rules: reg}), last: h.Time}
	t.act.start = h.Time
	t.st.Ingest(h)
	t.dirty = true
	return t
}

func (t *tally) add(rec *capture.Record) {
	t.st.Ingest(rec)
	if !rec.Time.IsZero() {
		t.last = rec.Time
	}
	if rec.Type == capture.TypeFrame {
		t.act.add(rec.Time)
	}
	t.dirty = true
}

// info sums the session up so far; final hands the store over (it must
// not be used afterwards).
func (t *tally) info(live, final bool, dmg capture.Damage) ui.SessionInfo {
	t.st.SetDamage(dmg)
	t.dirty = false
	var snap *store.Snapshot
	if final {
		snap = t.st.Final()
	} else {
		snap = t.st.Snapshot()
	}
	return summarize(t.path, snap, &t.act, t.last, live)
}

// summarize makes a hub row of a snapshot.
func summarize(path string, snap *store.Snapshot, act *activity, last time.Time, live bool) ui.SessionInfo {
	s := &snap.Session
	info := ui.SessionInfo{
		Path: path, ID: s.ID, Label: s.Label, Transport: s.Transport,
		Client: s.Client, Server: s.Server,
		Elicitations: snap.Ledger.Len(), Findings: snap.Findings.Len(),
		Start: s.Start, LastActivity: last, Live: live,
		Activity: act.buckets(last),
	}
	info.Calls, _ = snap.CountCalls() // what the client asked, as sessions counts
	for i := range snap.Calls.Len() {
		if c := snap.Calls.At(i); c.Failed() {
			info.Errors++
		}
	}
	for _, row := range snap.Ledger.All() {
		if row.Status == store.LedgerPending {
			info.Pending++
		}
	}
	return info
}

// fineBuckets is how many slices of time activity counts frames in.
const fineBuckets = 128

// activity counts frames in fineBuckets equal slices of time from start,
// doubling the slices' width (merging pairs) when a frame falls past the
// last: memory stays constant however long the session.
type activity struct {
	start time.Time
	width time.Duration // of one slice; zero before the first frame
	n     [fineBuckets]int
}

func (a *activity) add(t time.Time) {
	if a.width == 0 {
		a.width = time.Millisecond
	}
	d := max(t.Sub(a.start), 0)
	for d >= a.width*fineBuckets {
		for i := range fineBuckets / 2 {
			a.n[i] = a.n[2*i] + a.n[2*i+1]
		}
		clear(a.n[fineBuckets/2:])
		a.width *= 2
	}
	a.n[d/a.width]++
}

// buckets spreads the counts over ui.ActivityBuckets equal slices of
// [start, end], by each fine slice's middle.
func (a *activity) buckets(end time.Time) []int {
	out := make([]int, ui.ActivityBuckets)
	span := end.Sub(a.start)
	for i, c := range a.n {
		if c == 0 {
			continue
		}
		j := ui.ActivityBuckets - 1
		if span > 0 {
			mid := time.Duration(i)*a.width + a.width/2
			j = min(int(mid*ui.ActivityBuckets/span), ui.ActivityBuckets-1)
		}
		out[j] += c
	}
	return out
}
