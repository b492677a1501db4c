package httpproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestHeadersNotUTF8: a header value that is not valid UTF-8 (obs-text, as
// HTTP allows), from the client or from the server, passes through
// unchanged and costs no record: the envelope keeps it with U+FFFD in
// place of the bad byte.
func TestHeadersNotUTF8(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		got <- r.Header.Get("Mcp-Param-Region")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", "s\xffs")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer target.Close()
	p, front, buf := proxyTo(t, target.URL)
	req, err := http.NewRequest(http.MethodPost, front.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Param-Region", "eu\xff1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatalf("closing the proxy: %v", err)
	}
	if v := <-got; v != "eu\xff1" {
		t.Errorf("the server got Mcp-Param-Region %q, want the bytes sent", v)
	}
	if v := resp.Header.Get("Mcp-Session-Id"); v != "s\xffs" {
		t.Errorf("the client got Mcp-Session-Id %q, want the bytes sent", v)
	}
	want := map[capture.Dir][2]string{capture.C2S: {"Mcp-Param-Region", "eu\uFFFD1"}, capture.S2C: {"Mcp-Session-Id", "s\uFFFDs"}}
	frames := 0
	for _, r := range buf.records(t) {
		if r.Type != capture.TypeFrame {
			continue
		}
		frames++
		if w := want[r.Dir]; r.HTTP == nil || r.HTTP.Headers[w[0]] != w[1] {
			t.Errorf("%s frame's envelope %+v, want %s: %q", r.Dir, r.HTTP, w[0], w[1])
		}
	}
	if frames != 2 {
		t.Errorf("%d frames recorded, want 2", frames)
	}
}

// TestSSEByteOrderMark: an event stream that starts with a byte order mark
// (which the standard lets a server send) has its first event recorded,
// and reaches the client as sent.
func TestSSEByteOrderMark(t *testing.T) {
	t.Parallel()
	const stream = "\uFEFFdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, stream)
	}))
	defer target.Close()
	p, front, buf := proxyTo(t, target.URL)
	resp, err := http.Post(front.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if string(got) != stream {
		t.Errorf("the client got %q, want %q", got, stream)
	}
	var answers int
	for _, r := range buf.records(t) {
		if r.Type == capture.TypeFrame && r.Dir == capture.S2C && string(r.Bytes()) == `{"jsonrpc":"2.0","id":1,"result":{}}` {
			answers++
		}
	}
	if answers != 1 {
		t.Errorf("%d answer frames recorded, want 1", answers)
	}
}
