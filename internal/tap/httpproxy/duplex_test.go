package httpproxy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestFullDuplex: the target answers on SSE after reading only the
// message at the head of the body; the client reads that answer through
// the proxy before it sends the rest of its body (64 KiB of whitespace),
// then the target reports how much of the rest it got. Over HTTP/1.1 the
// proxy must pass both directions at once: the answer must not wait for
// the body's end, and the body must not be drained away from the target
// and the capture when the answer starts (golang/go#40747).
func TestFullDuplex(t *testing.T) {
	const msg = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
	tail := strings.Repeat(" ", 64<<10)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		dec := json.NewDecoder(r.Body)
		var v any
		if err := dec.Decode(&v); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		w.(http.Flusher).Flush()
		rest, err := io.ReadAll(io.MultiReader(dec.Buffered(), r.Body))
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"rest\",\"params\":{\"n\":%d,\"err\":%q}}\n\n", len(rest), fmt.Sprint(err))
	}))
	defer target.Close()
	p, front, buf := proxyTo(t, target.URL)
	defer front.Close()

	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { _, _ = io.WriteString(pw, msg) }()
	type answer struct {
		resp *http.Response
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := http.Post(front.URL, "application/json", pr)
		got <- answer{resp, err}
	}()
	var resp *http.Response
	select {
	case a := <-got:
		if a.err != nil {
			t.Fatal(a.err)
		}
		resp = a.resp
	case <-time.After(10 * time.Second):
		t.Fatal("no answer while the request body was still open")
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	first, err := br.ReadString('\n')
	if err != nil || !strings.Contains(first, `"id":1`) {
		t.Fatalf("first event line %q, %v", first, err)
	}
	if _, err := io.WriteString(pw, tail); err != nil {
		t.Fatalf("sending the rest of the body: %v", err)
	}
	pw.Close()
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatalf("reading the rest of the answer: %v", err)
	}
	if want := fmt.Sprintf(`"n":%d,"err":"<nil>"`, len(tail)); !strings.Contains(string(rest), want) {
		t.Errorf("rest of the answer %q, want the target to have got the whole body (%s)", rest, want)
	}
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, r := range buf.records(t) {
		switch {
		case r.Type == capture.TypeNote:
			t.Errorf("note %s: %s", r.Note, r.Text)
		case r.Type == capture.TypeFrame && r.Dir == capture.C2S && string(r.Bytes()) != msg+tail:
			t.Errorf("request frame holds %d bytes, want the %d sent", len(r.Bytes()), len(msg+tail))
		}
	}
}
