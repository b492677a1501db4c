package http_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// handlerDelay is the client's elicitation "think time".
const handlerDelay = 30 * time.Millisecond

const (
	clientName    = "e2e-sdk-client"
	clientVersion = "1.2.3"
)

// newAnswerer is the test client's user: it thinks for handlerDelay,
// then answers with actions, in order.
func newAnswerer(actions ...string) *sdkpeer.Answerer {
	return sdkpeer.NewAnswerer(handlerDelay, actions...)
}

// conversation is one scripted client session: the protocol version, the
// server's mode, the elicitation answers and the tool calls, with the
// results each call must give.
type conversation struct {
	version string
	legacy  bool
	urlMode bool // the client declares URL-mode elicitation too
	answers []string
	calls   []toolCall
}

type toolCall struct {
	name, text string
	isError    bool
}

func modernConversation() conversation {
	return conversation{
		version: "2026-07-28", urlMode: true,
		answers: []string{"accept", "decline", "cancel", "accept", "accept", "accept"},
		calls: []toolCall{
			{"confirm", "confirm: accepted", false},
			{"confirm", "confirm: declined", true},
			{"confirm", "confirm: cancelled", true},
			{"chained", "step2: accepted", false},
			{"visit", "login: accepted", false},
		},
	}
}

func legacyConversation() conversation {
	return conversation{
		version: "2025-11-25", legacy: true,
		answers: []string{"accept"},
		calls:   []toolCall{{"book", "guests: accepted", false}},
	}
}

// run connects a client over transport and plays the conversation.
func (c conversation) run(ctx context.Context, t *testing.T, transport mcp.Transport) {
	t.Helper()
	ans := newAnswerer(c.answers...)
	opts := &mcp.ClientOptions{ElicitationHandler: ans.Handle}
	if c.urlMode {
		opts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
		}}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, opts)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
	if err != nil {
		t.Fatalf("connecting at %s: %v", c.version, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != c.version {
		t.Fatalf("negotiated protocol version %q, want %s", got, c.version)
	}
	for _, want := range c.calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: want.name})
		if err != nil {
			t.Fatalf("calling %s: %v", want.name, err)
		}
		var text string
		for _, ct := range res.Content {
			if tc, ok := ct.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if text != want.text || res.IsError != want.isError {
			t.Errorf("%s = %q (isError %v), want %q (isError %v)", want.name, text, res.IsError, want.text, want.isError)
		}
	}
	if err := cs.Close(); err != nil {
		t.Errorf("closing the client session: %v", err)
	}
}

// overHTTP plays c against an in-process go-sdk Streamable HTTP server
// through `mcptrail http` and returns the tap (stopped) for inspection.
func (c conversation) overHTTP(ctx context.Context, t *testing.T) *tap {
	t.Helper()
	srv := sdkpeer.NewServer(c.legacy)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: !c.legacy})
	ts := httptest.NewServer(h)
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	c.run(ctx, t, &mcp.StreamableClientTransport{Endpoint: tp.url("/mcp"), MaxRetries: -1})
	tp.stop(t)
	return tp
}

// overStdio plays c through `mcptrail -- sdkserver` and returns the
// capture's path.
func (c conversation) overStdio(ctx context.Context, t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "stdio.jsonl")
	args := []string{"--capture", path, "--", bins.sdkserver}
	if c.legacy {
		args = append(args, "-legacy")
	}
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+dir)
	c.run(ctx, t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second})
	return path
}

// TestSameAsStdio plays each era's conversation over HTTP and over stdio
// and checks that the export's calls, operations and ledger rows agree,
// apart from what only a transport can change (seqs, times, connections,
// and the legacy attribution, which HTTP makes exact).
func TestSameAsStdio(t *testing.T) {
	t.Parallel()
	for _, c := range []conversation{modernConversation(), legacyConversation()} {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tp := c.overHTTP(ctx, t)
			httpX := runExport(t, tp.capture)
			c.checkCapture(t, tp.records(t))
			if f := exportFindings(t, httpX); len(f) != 0 {
				t.Errorf("findings over HTTP: %v, want none", f)
			}
			stdioX := runExport(t, c.overStdio(ctx, t))
			for _, key := range []string{"calls", "operations", "elicitations"} {
				h, s := comparable(t, httpX, key), comparable(t, stdioX, key)
				if diff := cmp.Diff(s, h); diff != "" {
					t.Errorf("%s: stdio (-) vs http (+):\n%s", key, diff)
				}
			}
			if c.urlMode && !hasURLRow(comparable(t, httpX, "elicitations")) {
				t.Errorf("no answered url-mode ledger row (accept, %s) over HTTP", sdkpeer.VisitURL)
			}
			if t.Failed() || testing.Verbose() {
				t.Logf("http export:\n%s", httpX)
			}
		})
	}
}

// volatile are the export keys a transport or the clock changes.
func volatile() map[string]bool {
	return map[string]bool{
		"request_seq": true, "response_seq": true, "start": true, "end": true, "duration_ms": true,
		"wait_ms": true, "tool_ms": true, "asked_at": true, "answered_at": true, "elapsed_ms": true,
		"asked_seq": true, "answered_seq": true, "cancel_seq": true, "conn": true, "attribution": true,
	}
}

// comparable decodes the export's key and drops the volatile members of
// each element.
func comparable(t *testing.T, export []byte, key string) []map[string]any {
	t.Helper()
	var top map[string]jsontext.Value
	if err := json.Unmarshal(export, &top); err != nil {
		t.Fatalf("decoding export: %v", err)
	}
	var out []map[string]any
	if raw, ok := top[key]; ok {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("decoding export %s: %v", key, err)
		}
	}
	drop := volatile()
	for _, m := range out {
		for k := range m {
			if drop[k] {
				delete(m, k)
			}
		}
	}
	return out
}

// checkCapture checks what only HTTP has: every exchange visible, and in
// the legacy era the elicitation on the tool call's own SSE stream, its
// answer POSTed separately (202) in the same session.
func (c conversation) checkCapture(t *testing.T, recs []capture.Record) {
	t.Helper()
	order, byID := exchanges(t, recs)
	for _, id := range order {
		x := byID[id]
		var st []int
		for _, r := range x.responses {
			st = append(st, r.HTTP.Status)
		}
		t.Logf("exchange %s: %s %s conn %q request seq %d, statuses %v, notes %v", id, x.method, x.path, x.requests[0].Conn, x.requests[0].Seq, st, x.notes)
	}
	for _, r := range recs {
		if r.Type == capture.TypeFrame && r.HTTP.Method == "POST" && r.Dir == capture.C2S {
			if c.legacy == (r.Conn == "") && decode(r).Method != "initialize" {
				t.Errorf("POST frame %d (%s): conn %q in a %s session", r.Seq, decode(r).Method, r.Conn, c.version)
			}
		}
	}
	if !c.legacy {
		return
	}
	call := findFrame(t, recs, "tools/call", func(_ capture.Record, f wire.Frame) bool { return f.Method == "tools/call" })
	el := findFrame(t, recs, "elicitation/create", func(_ capture.Record, f wire.Frame) bool { return f.Method == "elicitation/create" })
	if el.HTTP.Exchange != call.HTTP.Exchange || el.Dir != capture.S2C || el.HTTP.Headers["Content-Type"] != "text/event-stream" {
		t.Errorf("elicitation/create on exchange %s (%s), want on the tools/call's SSE stream %s", el.HTTP.Exchange, el.HTTP.Headers["Content-Type"], call.HTTP.Exchange)
	}
	answer := findFrame(t, recs, "the elicitation answer", func(r capture.Record, f wire.Frame) bool {
		return r.Dir == capture.C2S && f.Kind == wire.KindResponse
	})
	x := byID[answer.HTTP.Exchange]
	if answer.HTTP.Exchange == call.HTTP.Exchange || answer.Conn != el.Conn || answer.Conn == "" {
		t.Errorf("answer on exchange %s conn %q; want its own POST in session %q", answer.HTTP.Exchange, answer.Conn, el.Conn)
	}
	if len(x.responses) != 1 || x.responses[0].HTTP.Status != 202 || x.responses[0].Size != 0 {
		t.Errorf("the answer's POST: responses %+v, want one empty 202", x.responses)
	}
	for _, r := range recs {
		if r.HTTP != nil && (r.HTTP.Method == "GET" || r.HTTP.Method == "DELETE") && r.Dir == capture.S2C && r.HTTP.Status == 0 {
			t.Errorf("%s frame %d without status", r.HTTP.Method, r.Seq)
		}
	}
}

// hasURLRow reports whether the ledger has the visit tool's url-mode row,
// answered accept.
func hasURLRow(rows []map[string]any) bool {
	for _, r := range rows {
		if r["mode"] == "url" && r["url"] == sdkpeer.VisitURL && r["action"] == "accept" && r["status"] == "answered" && r["host"] == "auth.example.com" {
			return true
		}
	}
	return false
}
