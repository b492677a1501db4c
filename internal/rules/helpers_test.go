package rules

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// t0 is the start of every scripted session.
var t0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// step is one frame of a scripted session, or another record (rec set).
type step struct {
	dir  capture.Dir
	raw  string
	http *capture.HTTP
	rec  *capture.Record
}

func c2s(raw string) step { return step{dir: capture.C2S, raw: raw} }
func s2c(raw string) step { return step{dir: capture.S2C, raw: raw} }
func endRec() step        { return step{rec: &capture.Record{Type: capture.TypeEnd}} }

// post and answer put a frame on an HTTP exchange.
func post(ex, raw string, headers map[string]string) step {
	st := c2s(raw)
	st.http = &capture.HTTP{Exchange: ex, Method: "POST", Path: "/mcp", Headers: headers}
	return st
}

func answer(ex string, status int, raw string, headers map[string]string) step {
	st := s2c(raw)
	st.http = &capture.HTTP{Exchange: ex, Method: "POST", Path: "/mcp", Status: status, Headers: headers}
	return st
}

// modernHeaders are the headers a modern tools/call of name must carry.
func modernHeaders(name string) map[string]string {
	return map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name}
}

var jsonCT = map[string]string{"Content-Type": "application/json"}

// records turns steps into capture records (header first, seqs from 1,
// 1 ms apart), as a Reader would hand them out: a JSON body in Msg,
// another in Text, an empty one in neither.
func records(steps []step) []capture.Record {
	out := []capture.Record{{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: "test", Transport: "stdio", Label: "test", Command: []string{"server"}}}
	if len(steps) > 0 && steps[0].rec != nil && steps[0].rec.Type == capture.TypeSession {
		// The session's own header (an HTTP tap's, with its target).
		out[0] = *steps[0].rec
		steps = steps[1:]
	}
	for i, st := range steps {
		r := capture.Record{Type: capture.TypeFrame, Dir: st.dir, HTTP: st.http}
		if st.rec != nil {
			r = *st.rec
		}
		r.Seq, r.Time = uint64(i+1), t0.Add(time.Duration(i+1)*time.Millisecond)
		if st.rec != nil && !st.rec.Time.IsZero() {
			r.Time = st.rec.Time // a capture's record keeps its time (a DPoP proof's iat is judged by it)
		}
		switch v := jsontext.Value(st.raw); {
		case st.raw == "":
		case v.IsValid():
			r.Msg = v
		default:
			r.Text = st.raw
		}
		out = append(out, r)
	}
	return out
}

// load runs the steps through a store with the default rules and checks.
func load(t testing.TB, steps []step) *store.Snapshot {
	t.Helper()
	st := store.New(&store.Options{Rules: Default(), Checks: Checks()})
	for _, r := range records(steps) {
		st.Ingest(&r)
	}
	return st.Final()
}

func findingLines(fs []finding.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s@%d", f.Rule, f.Seq)
	}
	return out
}

// meta is the _meta of a modern request; the client declares both
// elicitation modes.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}}`

// res is a result response.
func res(id, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// notif is a notification.
func notif(method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

// tool is a modern tools/call; extra is spliced into params (start it with
// a comma).
func tool(id, name, args, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s%s,%s}}`,
		id, name, args, extra, meta)
}
