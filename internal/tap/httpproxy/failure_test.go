package httpproxy

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestOnFailure: every exchange answered 400 or above reaches OnFailure
// once, naming the JSON-RPC method from Mcp-Method or else the body; a
// target that is down is a 502 with TargetDown; successes are not
// reported.
func TestOnFailure(t *testing.T) {
	t.Parallel()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method == http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case strings.Contains(string(body), `"tools/call"`):
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
		case strings.Contains(string(body), `"boom"`):
			http.Error(w, "boom", http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		}
	}))
	defer target.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/mcp?key=query-secret"
	ln.Close() // nothing listens there now

	// OnFailure runs as the handler ends, which may be after the client
	// read the answer: the test waits for the reports on a channel.
	reports := make(chan Failure, 16)
	record := func(f Failure) { reports <- f }
	proxy := func(to string) *httptest.Server {
		u, err := url.Parse(to)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(&Options{Target: u, Capture: io.Discard, OnFailure: record})
		if err != nil {
			t.Fatal(err)
		}
		front := httptest.NewServer(p)
		t.Cleanup(func() {
			front.Close()
			if err := p.Close(); err != nil {
				t.Error(err)
			}
		})
		return front
	}
	up, gone := proxy(target.URL+"/mcp"), proxy(down)
	send := func(method, url, body string, hdr map[string]string) {
		req, err := http.NewRequest(method, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	send("POST", up.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, map[string]string{"Mcp-Method": "tools/call"})
	send("POST", up.URL, `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"boom"}}`, nil)
	send("POST", up.URL, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, nil)
	send("GET", up.URL, "", nil)
	send("POST", gone.URL, `{"jsonrpc":"2.0","id":4,"method":"initialize","params":{}}`, nil)
	want := []Failure{ // by status
		{Status: 401, Method: "POST", Path: "/", RPCMethod: "tools/call"},
		{Status: 405, Method: "GET", Path: "/"},
		{Status: 500, Method: "POST", Path: "/", RPCMethod: "prompts/get"},
		{Status: 502, Method: "POST", Path: "/", RPCMethod: "initialize", TargetDown: true},
	}
	var got []Failure
	for range want {
		select {
		case f := <-reports:
			got = append(got, f)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d failures reported, want %d: %+v", len(got), len(want), got)
		}
	}
	slices.SortFunc(got, func(a, b Failure) int { return a.Status - b.Status })
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Failure{}, "Err")); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if len(got) == len(want) && (!strings.Contains(got[3].Err, "connect") || strings.Contains(got[3].Err, "query-secret")) {
		t.Errorf("502 Err %q does not say the target refused the connection, or holds the target's query", got[3].Err)
	}
}

// TestUpstreamCause: a transport that wraps its errors in *url.Error (as
// http.Client does) does not put the target's URL, query and all, in
// Failure.Err.
func TestUpstreamCause(t *testing.T) {
	t.Parallel()
	err := &url.Error{Op: "Post", URL: "http://h/mcp?key=query-secret", Err: errors.New("connection refused")}
	if got := upstreamCause(fmt.Errorf("round trip: %w", err)); got != "connection refused" {
		t.Errorf("upstreamCause = %q, want %q", got, "connection refused")
	}
	if got := upstreamCause(errors.New("EOF")); got != "EOF" {
		t.Errorf("upstreamCause = %q, want EOF", got)
	}
}
