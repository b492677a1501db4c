package oauth

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The Tracker keeps what the flow may need, not every request: the first
// of a URL, every 401/403 and the request after one, a change of
// Authorization scheme, and the first after a record that was not a frame;
// an access_token query is noted once per URL.
func TestTrackerKeeps(t *testing.T) {
	t.Parallel()
	var tr Tracker
	seq := uint64(0)
	exchange := func(n int, auth string, status int, u string) {
		h := map[string]string{}
		if auth != "" {
			h["Authorization"] = auth + " [present]"
		}
		seq++
		ex := string(rune('a' + n))
		tr.Track(&store.Frame{Seq: seq, Record: &capture.Record{Type: capture.TypeFrame, Seq: seq, Dir: capture.C2S,
			Msg: jsontext.Value(`{}`), HTTP: &capture.HTTP{Exchange: ex, Method: "POST", URL: u, Headers: h}}})
		seq++
		tr.Track(&store.Frame{Seq: seq, Record: &capture.Record{Type: capture.TypeFrame, Seq: seq, Dir: capture.S2C,
			HTTP: &capture.HTTP{Exchange: ex, Status: status}}})
	}
	const u = "https://rs.example/mcp"
	exchange(0, "", 200, u)                                // 1: first of the URL: kept
	exchange(1, "", 200, u)                                // 3: same again: dropped
	exchange(2, "", 401, u)                                // 5: challenge: kept
	exchange(3, "", 200, u)                                // 7: after a failure: kept
	seq += 3                                               // exchange records (a token request) came in between
	exchange(4, "", 200, u)                                // 12: after the gap: kept
	exchange(5, "Bearer", 200, u)                          // 14: a new scheme: kept
	exchange(6, "Bearer", 200, u)                          // 16: dropped
	exchange(7, "", 200, u+"?access_token=%5BREDACTED%5D") // 18: a new URL: kept, and noted
	exchange(8, "", 200, u+"?access_token=%5BREDACTED%5D") // 20: dropped, not noted again
	var got []uint64
	for _, q := range tr.kept {
		got = append(got, q.Seq)
	}
	if diff := cmp.Diff([]uint64{1, 5, 7, 12, 14, 18}, got); diff != "" {
		t.Errorf("kept seqs (-want +got):\n%s", diff)
	}
	if len(tr.queryTokens) != 1 || tr.queryTokens[0].seq != 18 {
		t.Errorf("query tokens %+v, want the one at seq 18", tr.queryTokens)
	}
}
