package http_test

import (
	"bytes"

	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

const (
	// secret is a bearer token planted in requests; it must never reach the
	// capture.
	secret = "tok-3f9d2c1e-never-in-capture"
	// challenge is the 401's WWW-Authenticate, kept verbatim.
	challenge = `Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource", scope="mcp:tools"`
	// foreignOrigin is an Origin the test target rejects with 403 (the
	// tap is told to let it through).
	foreignOrigin = "https://evil.example"
)

// toolCall is a modern tools/call body.
const toolCallBody = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"confirm","arguments":{},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// statusTarget answers like a modern server with auth and an Origin
// check: 401 without the right token, 403 for a foreign Origin, 202 for a
// notification, 405 for GET, else a JSON result.
func statusTarget(t *testing.T) *httptest.Server {
	t.Helper()
	return httptest.NewServer(statusHandler())
}

// statusHandler is statusTarget's handler.
func statusHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method == http.MethodGet:
			w.Header().Set("Allow", "POST")
			w.WriteHeader(http.StatusMethodNotAllowed)
		case r.Header.Get("Origin") == foreignOrigin:
			http.Error(w, "forbidden origin", http.StatusForbidden)
		case r.Header.Get("Authorization") != "Bearer "+secret:
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
		case bytes.Contains(body, []byte(`"notifications/`)):
			w.WriteHeader(http.StatusAccepted)
		default:
			var msg struct {
				ID jsontext.Value `json:"id"`
			}
			_ = jsonUnmarshal(body, &msg)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{"resultType":"complete","content":[]}}`)
		}
	})
}

// post sends a POST through the tap with the MCP headers of body's method.
func post(t *testing.T, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func modernHeaders(extra ...string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "confirm"}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return h
}

// TestStatusFrames sends requests that end in 401, 403, 202, 405 and 200
// through the tap and checks that each answer is a status frame tied to
// its request, that a request answered by an error status ends with it,
// and that the token never reaches the capture.
func TestStatusFrames(t *testing.T) {
	t.Parallel()
	ts := statusTarget(t)
	defer ts.Close()
	// The foreign Origin is allowed through, so the target's own 403 is seen.
	tp := startTap(t, ts.URL+"/mcp", "--allow-origin", foreignOrigin)

	r401 := post(t, tp.url("/mcp"), toolCallBody, modernHeaders("Authorization", "Bearer wrong-"+secret))
	r403 := post(t, tp.url("/mcp"), strings.Replace(toolCallBody, `"id":7`, `"id":8`, 1),
		modernHeaders("Authorization", "Bearer "+secret, "Origin", foreignOrigin))
	r202 := post(t, tp.url("/mcp"), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`,
		map[string]string{"Authorization": "Bearer " + secret, "MCP-Protocol-Version": "2026-07-28"})
	r200 := post(t, tp.url("/mcp"), strings.Replace(toolCallBody, `"id":7`, `"id":9`, 1), modernHeaders("Authorization", "Bearer "+secret))
	get, err := http.Get(tp.url("/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	get.Body.Close()
	if r401.StatusCode != 401 || r401.Header.Get("WWW-Authenticate") != challenge || r403.StatusCode != 403 ||
		r202.StatusCode != 202 || r200.StatusCode != 200 || get.StatusCode != 405 {
		t.Fatalf("statuses through the tap: %d (%q) %d %d %d %d", r401.StatusCode, r401.Header.Get("WWW-Authenticate"),
			r403.StatusCode, r202.StatusCode, r200.StatusCode, get.StatusCode)
	}
	tp.stop(t)

	raw, err := os.ReadFile(tp.capture)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(secret)) {
		t.Errorf("the capture contains the Authorization token")
	}
	recs := tp.records(t)
	order, byID := exchanges(t, recs)
	type exView struct {
		Method    string
		Statuses  []int
		Challenge string
		Auth      string
		Origin    string
	}
	var views []exView
	for _, id := range order {
		x := byID[id]
		v := exView{Method: x.method, Auth: x.requests[0].HTTP.Headers["Authorization"], Origin: x.requests[0].HTTP.Headers["Origin"]}
		for _, r := range x.responses {
			v.Statuses = append(v.Statuses, r.HTTP.Status)
			if c := r.HTTP.Headers["WWW-Authenticate"]; c != "" {
				v.Challenge = c
			}
		}
		views = append(views, v)
	}
	want := []exView{
		{"POST", []int{401}, challenge, "Bearer [present]", ""},
		{"POST", []int{403}, "", "Bearer [present]", foreignOrigin},
		{"POST", []int{202}, "", "Bearer [present]", ""},
		{"POST", []int{200}, "", "Bearer [present]", ""},
		{"GET", []int{405}, "", "", ""},
	}
	if d := diff(want, views); d != "" {
		t.Errorf("exchanges (-want +got):\n%s", d)
	}

	x := runExport(t, tp.capture)
	calls := exportCalls(t, x)
	type callView struct {
		ID     float64
		Status string
		Code   float64
	}
	var cv []callView
	for _, c := range calls {
		v := callView{ID: c["id"].(float64), Status: c["status"].(string)}
		if e, ok := c["error"].(map[string]any); ok {
			v.Code = e["code"].(float64)
		}
		cv = append(cv, v)
	}
	wantCalls := []callView{{7, "http-error", 401}, {8, "http-error", 403}, {9, "ok", 0}}
	if d := diff(wantCalls, cv); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	// The 401 and the 403 are failures; the 202 and the GET's 405 are not.
	if d := diff([]string{"http-error-status", "http-error-status"}, exportFindings(t, x)); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
}

// TestTargetDown: with nothing listening at the target, a POST gets 502
// from the tap, recorded as a status frame with an upstream-error note
// (and no body-unread note: the target never had the body), and the call
// ends with that status.
func TestTargetDown(t *testing.T) {
	t.Parallel()
	tp := startTap(t, "http://"+deadAddr(t)+"/mcp")
	resp := post(t, tp.url("/mcp"), toolCallBody, modernHeaders())
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", resp.StatusCode)
	}
	tp.stop(t)
	recs := tp.records(t)
	order, byID := exchanges(t, recs)
	if len(order) != 1 {
		t.Fatalf("%d exchanges, want 1", len(order))
	}
	x := byID[order[0]]
	// The target was never reached: nothing of the body was left unread
	// by it, so there is no body-unread note.
	if len(x.responses) != 1 || x.responses[0].HTTP.Status != 502 || len(x.notes) != 1 || x.notes[0] != "upstream-error" {
		t.Errorf("exchange: responses %+v notes %v; want one 502 frame and an upstream-error note", x.responses, x.notes)
	}
	calls := exportCalls(t, runExport(t, tp.capture))
	if len(calls) != 1 || calls[0]["status"] != "http-error" || calls[0]["error"].(map[string]any)["code"].(float64) != 502 {
		t.Errorf("calls %v, want one ended http-error 502", calls)
	}
}

// TestHostRejected: a request whose Host names another host (a DNS
// rebinding page) is refused with 403 before it reaches the target, and
// noted in the capture.
func TestHostRejected(t *testing.T) {
	t.Parallel()
	hits := make(chan struct{}, 10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits <- struct{}{}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	req, _ := http.NewRequest(http.MethodPost, tp.url("/mcp"), strings.NewReader(toolCallBody))
	req.Host = "rebind.evil.example:" + tp.addr[strings.LastIndexByte(tp.addr, ':')+1:]
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ok := post(t, strings.Replace(tp.url("/mcp"), "127.0.0.1", "localhost", 1), `{"jsonrpc":"2.0","method":"notifications/x"}`, nil)
	tp.stop(t)
	if resp.StatusCode != http.StatusForbidden || ok.StatusCode != http.StatusAccepted {
		t.Errorf("foreign Host got %d (want 403); localhost got %d (want 202)", resp.StatusCode, ok.StatusCode)
	}
	if len(hits) != 1 {
		t.Errorf("the target saw %d requests, want only the localhost one", len(hits))
	}
	var notes []string
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeNote {
			notes = append(notes, r.Note)
		}
	}
	if len(notes) != 1 || notes[0] != "host-rejected" {
		t.Errorf("notes %v, want [host-rejected]", notes)
	}
}

// TestModernGET405 checks the real go-sdk stateless server's 405 for GET
// through the tap.
func TestModernGET405(t *testing.T) {
	t.Parallel()
	srv := sdkpeer.NewServer(false)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	req, _ := http.NewRequest(http.MethodGet, tp.url("/mcp"), nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	tp.stop(t)
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d, want 405", resp.StatusCode)
	}
	order, byID := exchanges(t, tp.records(t))
	if len(order) != 1 || byID[order[0]].method != "GET" || byID[order[0]].responses[0].HTTP.Status != 405 {
		t.Errorf("exchanges %v, want one GET answered 405", order)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// deadAddr returns a loopback address nothing listens on: a port the
// system handed out, then closed.
func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
