package http_test

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// exchangeView is what the capture says about one HTTP exchange.
type exchangeView struct {
	method, path string
	requests     []capture.Record // c2s frames
	responses    []capture.Record // s2c frames
	notes        []string
}

// exchanges groups the capture's frames and notes by exchange id, in order
// of first appearance, and checks the envelope invariants: every exchange
// has one request frame, and an answer (an s2c frame or a note) whose seq
// is above the request's.
func exchanges(t *testing.T, recs []capture.Record) ([]string, map[string]*exchangeView) {
	t.Helper()
	var order []string
	byID := map[string]*exchangeView{}
	for i := range recs {
		r := recs[i]
		if r.HTTP == nil || r.HTTP.Exchange == "" {
			if r.Type == capture.TypeFrame {
				t.Errorf("frame %d has no HTTP envelope", r.Seq)
			}
			continue
		}
		x, ok := byID[r.HTTP.Exchange]
		if !ok {
			x = &exchangeView{method: r.HTTP.Method, path: r.HTTP.Path}
			byID[r.HTTP.Exchange] = x
			order = append(order, r.HTTP.Exchange)
		}
		switch {
		case r.Type == capture.TypeNote:
			x.notes = append(x.notes, r.Note)
		case r.Dir == capture.C2S:
			x.requests = append(x.requests, r)
		default:
			x.responses = append(x.responses, r)
		}
	}
	for _, id := range order {
		x := byID[id]
		if len(x.requests) != 1 {
			t.Errorf("exchange %s (%s %s): %d request frames, want 1", id, x.method, x.path, len(x.requests))
			continue
		}
		if len(x.responses) == 0 && len(x.notes) == 0 {
			t.Errorf("exchange %s (%s %s): no response frame and no note", id, x.method, x.path)
		}
		for _, resp := range x.responses {
			if resp.Seq <= x.requests[0].Seq {
				t.Errorf("exchange %s: response seq %d not above request seq %d", id, resp.Seq, x.requests[0].Seq)
			}
			if resp.HTTP.Status == 0 {
				t.Errorf("exchange %s: response frame %d has no status", id, resp.Seq)
			}
		}
	}
	return order, byID
}

// decode returns a frame's decoded message.
func decode(r capture.Record) wire.Frame { return wire.Decode(r.Bytes()) }

// findFrame returns the first frame for which match holds.
func findFrame(t *testing.T, recs []capture.Record, what string, match func(capture.Record, wire.Frame) bool) capture.Record {
	t.Helper()
	for _, r := range recs {
		if r.Type == capture.TypeFrame && match(r, decode(r)) {
			return r
		}
	}
	t.Fatalf("no frame: %s", what)
	return capture.Record{}
}

// exportFindings returns the rule ids of the export's findings.
func exportFindings(t *testing.T, export []byte) []string {
	t.Helper()
	var x struct {
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(export, &x); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range x.Findings {
		out = append(out, f.Rule)
		t.Logf("finding %s: %s", f.Rule, f.Message)
	}
	return out
}

// exportCalls returns the export's calls as generic maps.
func exportCalls(t *testing.T, export []byte) []map[string]any {
	t.Helper()
	var x struct {
		Calls []map[string]any `json:"calls"`
	}
	if err := json.Unmarshal(export, &x); err != nil {
		t.Fatal(err)
	}
	return x.Calls
}

// diff is cmp.Diff with unexported fields allowed.
func diff(want, got any) string { return cmp.Diff(want, got) }
