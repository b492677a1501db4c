package http_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// admitCase is one request sent to a listener and the status it must get.
type admitCase struct {
	name         string
	method, path string
	host         string // "" keeps the listener's address
	origin, ct   string // "" sends none
	want         int
}

// sendAdmit sends c to the listener at addr with body and returns the
// status it got.
func sendAdmit(t *testing.T, addr string, c admitCase, body string) int {
	t.Helper()
	var rd io.Reader
	if c.method == http.MethodPost {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(c.method, "http://"+addr+c.path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if c.host != "" {
		req.Host = c.host
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	if c.ct != "" {
		req.Header.Set("Content-Type", c.ct)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// portOf is the port of a host:port.
func portOf(addr string) string { return addr[strings.LastIndexByte(addr, ':')+1:] }

// TestCrossOriginRefused drives the real `mcptrail http` as a web page
// would: a cross-site "simple" POST (text/plain, no preflight), the same
// POST with its Origin stripped, and a DNS-rebinding Host are refused
// before they reach the target, each noted in the capture and named once
// on stderr; an SDK-style request (no Origin), the MCP Inspector on
// localhost, an --allow-origin page, OAuth discovery and a form-encoded
// token request off the MCP endpoint go through.
func TestCrossOriginRefused(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp?key=query-secret", "--allow-origin", "https://app.example.com")
	port := portOf(tp.addr)
	cases := []admitCase{
		{"cross-site text/plain POST", "POST", "/mcp", "", "https://evil.example", "text/plain;charset=UTF-8", 403},
		{"cross-site JSON POST", "POST", "/mcp", "", "https://evil.example", "application/json", 403},
		{"text/plain POST, Origin stripped", "POST", "/mcp", "", "", "text/plain", 415},
		{"POST without Content-Type", "POST", "/", "", "", "", 415},
		{"rebinding Host", "POST", "/mcp", "evil.example:" + port, "", "application/json", 403},
		{"rebinding Host, same-origin page", "POST", "/mcp", "evil.example:" + port, "http://evil.example:" + port, "application/json", 403},
		{"SDK client", "POST", "/mcp", "", "", "application/json", 202},
		{"MCP Inspector on localhost", "POST", "/mcp", "", "http://localhost:6274", "application/json; charset=utf-8", 202},
		{"--allow-origin page", "POST", "/mcp", "", "https://app.example.com", "application/json", 202},
		{"OAuth discovery", "GET", "/.well-known/oauth-protected-resource/mcp", "", "", "", 202},
		{"token request", "POST", "/token", "", "", "application/x-www-form-urlencoded", 202},
	}
	var got, want []int
	for _, c := range cases {
		got = append(got, sendAdmit(t, tp.addr, c, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_everything"}}`))
		want = append(want, c.want)
	}
	tp.stop(t)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("statuses, in order %v (-want +got):\n%s", names(cases), d)
	}
	if n := hits.Load(); n != 5 {
		t.Errorf("the target saw %d requests, want the 5 admitted ones", n)
	}
	var notes []string
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeNote {
			notes = append(notes, r.Note)
			if r.HTTP == nil || r.HTTP.Method != "POST" || !strings.HasPrefix(r.Text, "refused with 4") {
				t.Errorf("note %s: envelope %+v text %q, want the POST's and \"refused with 4..\"", r.Note, r.HTTP, r.Text)
			}
		}
	}
	wantNotes := []string{"origin-rejected", "origin-rejected", "content-type-rejected", "content-type-rejected", "host-rejected", "host-rejected"}
	if d := cmp.Diff(wantNotes, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
	for _, line := range []string{
		`mcptrail: refused POST /mcp with 403 Forbidden, before the target: Origin "https://evil.example" is not an allowed origin`,
		`mcptrail: refused POST /mcp with 415 Unsupported Media Type, before the target: Content-Type "text/plain" is not application/json`,
	} {
		if strings.Count(tp.stderr.String(), line) != 1 {
			t.Errorf("stderr does not say once %q:\n%s", line, tp.stderr.String())
		}
	}
}

// TestMetricsRefusesRebinding: /metrics, served by the real binary next
// to `mcptrail http`, answers its own address and refuses a rebinding
// Host and a foreign Origin, which would read the metric labels.
func TestMetricsRefusesRebinding(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp", "--metrics-listen", "127.0.0.1:0")
	m := regexp.MustCompile(`mcptrail: metrics on http://(\S+)/metrics`).FindStringSubmatch(tp.stderr.String())
	if m == nil {
		t.Fatalf("no metrics address on stderr:\n%s", tp.stderr.String())
	}
	cases := []admitCase{
		{"scraper", "GET", "/metrics", "", "", "", 200},
		{"scraper by localhost", "GET", "/metrics", "localhost:" + portOf(m[1]), "", "", 200},
		{"rebinding Host", "GET", "/metrics", "evil.example:" + portOf(m[1]), "", "", 403},
		{"cross-site page", "GET", "/metrics", "", "https://evil.example", "", 403},
	}
	var got, want []int
	for _, c := range cases {
		got = append(got, sendAdmit(t, m[1], c, ""))
		want = append(want, c.want)
	}
	tp.stop(t)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("statuses, in order %v (-want +got):\n%s", names(cases), d)
	}
}

func names(cases []admitCase) []string {
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = c.name
	}
	return out
}
