package http_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// h2cClient speaks HTTP/2 over cleartext with prior knowledge only.
func h2cClient() *http.Client {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{Protocols: &p}}
}

// TestH2C: a client that speaks only h2c gets its JSON answer and its SSE
// stream (event by event) over HTTP/2 through the tap, and the capture
// has every frame.
func TestH2C(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"stream"`) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\"}}\n\n")
	}))
	defer target.Close()
	tp := startTap(t, target.URL+"/mcp")
	c := h2cClient()
	defer c.CloseIdleConnections()
	resp, err := c.Post(tp.url("/mcp"), "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plain"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.ProtoMajor != 2 || !strings.Contains(string(b), `"id":1`) {
		t.Fatalf("%s %d %s; want HTTP/2 and the result", resp.Proto, resp.StatusCode, b)
	}
	resp, err = c.Post(tp.url("/mcp"), "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stream"}}`))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n') // arrives while the target still waits
	if err != nil || !strings.Contains(line, "notifications/progress") || resp.ProtoMajor != 2 {
		t.Fatalf("%s first line %q %v", resp.Proto, line, err)
	}
	close(release)
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if !strings.Contains(string(rest), `"id":2`) {
		t.Errorf("rest of the stream %q", rest)
	}
	c.CloseIdleConnections()
	tp.stop(t)
	var frames []string
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeFrame {
			frames = append(frames, fmt.Sprintf("%s %s %d", r.Dir, r.HTTP.Exchange, r.HTTP.Status))
		}
	}
	want := []string{"c2s x1 0", "s2c x1 200", "c2s x2 0", "s2c x2 200", "s2c x2 200"}
	if d := diff(want, frames); d != "" {
		t.Errorf("frames (-want +got):\n%s", d)
	}
}

// restartable is a target on a fixed address that can be stopped and
// started again.
type restartable struct {
	addr string
	srv  *httptest.Server
}

func (r *restartable) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		t.Fatalf("listening again on %s: %v", r.addr, err)
	}
	r.srv = httptest.NewUnstartedServer(statusHandler())
	r.srv.Listener.Close()
	r.srv.Listener = ln
	r.srv.Start()
	r.addr = ln.Addr().String()
}

// TestTargetRestart: the target stops mid-session: requests get 502 and an
// upstream-error note; it starts again on the same address: traffic
// resumes, and each call ends as its answer says.
func TestTargetRestart(t *testing.T) {
	t.Parallel()
	tg := &restartable{addr: "127.0.0.1:0"}
	tg.start(t)
	tp := startTap(t, "http://"+tg.addr+"/mcp")
	auth := modernHeaders("Authorization", "Bearer "+secret)
	call := func(id int) int {
		body := strings.Replace(toolCallBody, `"id":7`, fmt.Sprintf(`"id":%d`, id), 1)
		return post(t, tp.url("/mcp"), body, auth).StatusCode
	}
	var got []int
	got = append(got, call(1), call(2))
	tg.srv.Close()
	got = append(got, call(3), call(4))
	tg.start(t)
	defer tg.srv.Close()
	got = append(got, call(5), call(6))
	tp.stop(t)
	if d := diff([]int{200, 200, 502, 502, 200, 200}, got); d != "" {
		t.Fatalf("statuses (-want +got):\n%s", d)
	}
	var upstream int
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeNote && r.Note == "upstream-error" {
			upstream++
		}
	}
	if upstream != 2 {
		t.Errorf("%d upstream-error notes, want 2", upstream)
	}
	var statuses []string
	for _, c := range exportCalls(t, runExport(t, tp.capture)) {
		statuses = append(statuses, c["status"].(string))
	}
	if d := diff([]string{"ok", "ok", "http-error", "http-error", "ok", "ok"}, statuses); d != "" {
		t.Errorf("call statuses (-want +got):\n%s", d)
	}
}
