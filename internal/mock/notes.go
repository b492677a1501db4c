package mock

import (
	"cmp"
	"errors"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// methodProgress is the progress notification, whose token names the
// request it reports on.
const methodProgress = "notifications/progress"

// maxNoteScan bounds the seqs read between one call's request and its
// answer when looking for the notifications it carried.
const maxNoteScan = 4096

// span is a recorded client call's seq range and where its notifications
// go: an entry's (round -1) or a round's.
type span struct {
	start, end uint64
	entry      int
	round      int
}

// readNotes gives each answered client call the server notifications
// recorded between its request and its answer, in order; a notification
// inside several calls' ranges goes to the call that started last (the
// store pairs requests with answers; this only reads seqs between them).
func (s *Script) readNotes(snap *store.Snapshot) error {
	var spans []span
	for j, e := range s.entries {
		c := snap.Calls.At(e.call)
		spans = append(spans, span{c.RequestSeq, c.ResponseSeq, j, -1})
		for k, r := range s.rounds[e.op] {
			if e.op < 0 {
				break
			}
			rc := snap.Calls.At(r.call)
			spans = append(spans, span{rc.RequestSeq, rc.ResponseSeq, j, k})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(b.start, a.start) })
	claimed := map[uint64]bool{}
	for _, sp := range spans {
		if sp.end <= sp.start+1 {
			continue
		}
		notes, err := notesBetween(snap, sp.start, min(sp.end, sp.start+maxNoteScan), claimed)
		if err != nil {
			return err
		}
		if sp.round < 0 {
			s.entries[sp.entry].notes = notes
		} else {
			s.rounds[s.entries[sp.entry].op][sp.round].notes = notes
		}
	}
	return nil
}

// notesBetween returns the unclaimed server notifications with a seq
// strictly between start and end, and claims them.
func notesBetween(snap *store.Snapshot, start, end uint64, claimed map[uint64]bool) ([][]byte, error) {
	var notes [][]byte
	for seq := start + 1; seq < end; seq++ {
		if claimed[seq] {
			continue
		}
		rec, err := snap.Frame(seq)
		if errors.Is(err, store.ErrNoFrame) {
			continue // a stderr line or a note took the seq
		}
		if err != nil {
			return nil, err
		}
		if rec.Dir != capture.S2C || len(rec.Msg) == 0 {
			continue
		}
		if f := wire.Decode(rec.Msg); f.Kind == wire.KindNotification {
			claimed[seq] = true
			notes = append(notes, rec.Msg)
		}
	}
	return notes, nil
}

// progressToken returns the raw _meta.progressToken of a request's params,
// or nil.
func progressToken(params []byte) []byte { return mcp.ProgressToken(params) }

// sendNotes sends a call's recorded notifications; a progress
// notification carries the live request's token instead of the recorded
// one, and is not sent when the live request asked for no progress.
func sendNotes(notes [][]byte, token []byte, out Sender) {
	for _, n := range notes {
		f := wire.Decode(n)
		if f.Method == methodProgress {
			if token == nil {
				continue
			}
			b, err := setPath(n, []string{"params"}, mcp.MemberProgressToken, token)
			if err != nil {
				continue
			}
			n = b
		}
		out.Send(n, false)
	}
}
