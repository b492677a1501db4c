package http_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// legacyProbeAnswer is what a 2025 TypeScript SDK server answers a POST
// that is not initialize and carries no session, such as a dual-era
// client's server/discover probe: 400 with a JSON-RPC error of null id.
const legacyProbeAnswer = `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`

// failingTarget puts a 2025-11-25 go-sdk server behind the failures a
// real deployment has: 401 with a challenge without the bearer token, the
// 400 a 2025 TypeScript SDK server gives a server/discover probe, and 500
// for a call of the tool "boom".
func failingTarget() http.Handler {
	srv := sdkpeer.NewServer(true)
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		switch {
		case r.Header.Get("Authorization") != "Bearer "+secret:
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
		case bytes.Contains(body, []byte(`"server/discover"`)):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, legacyProbeAnswer)
		case bytes.Contains(body, []byte(`"name":"boom"`)):
			http.Error(w, "internal error", http.StatusInternalServerError)
		default:
			sdk.ServeHTTP(w, r)
		}
	})
}

// sdkClient returns a go-sdk Streamable HTTP transport to url, with the
// bearer token when authorized.
func sdkClient(url string, authorized bool) *mcp.StreamableClientTransport {
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
	if authorized {
		tr.HTTPClient = &http.Client{Transport: headerAdder{
			h: http.Header{"Authorization": {"Bearer " + secret}}, next: http.DefaultTransport}}
	}
	return tr
}

// TestHTTPFailuresVisible: real go-sdk clients (2026-07-28, which probe
// with server/discover and fall back to initialize) meet a 401, the 400 a
// 2025 server gives their probe, and 500s through the real `mcptrail http`:
// its stderr says one line per failing status, the first time only; the
// export counts each failed call as an error, flags each failing answer
// http-error-status and nothing else (the probe is answered, not
// unanswered); `sessions` and the text export count the errors, but for
// the probe the 2025 server refused and the client fell back from
// (negotiation, not an error).
func TestHTTPFailuresVisible(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ts := httptest.NewServer(failingTarget())
	defer ts.Close()
	home := t.TempDir()
	tp := startTapHome(t, home, ts.URL+"/mcp")
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, nil)
	for range 2 {
		if cs, err := client.Connect(ctx, sdkClient(tp.url("/mcp"), false), nil); err == nil {
			cs.Close()
			t.Fatal("connected without the token")
		}
	}
	cs, err := client.Connect(ctx, sdkClient(tp.url("/mcp"), true), nil)
	if err != nil {
		t.Fatalf("connecting with the token: %v", err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Errorf("negotiated %q after the probe, want the fallback to 2025-11-25", got)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("tools/list: %v", err)
	}
	for range 2 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom"}); err == nil {
			t.Error("calling boom succeeded through a 500")
		}
	}
	cs.Close()
	tp.stop(t)

	checkStderrOnce(t, tp.stderr.String(), map[string]int{
		"mcptrail: target answered 401 Unauthorized to ":                                1,
		"mcptrail: target answered 500 Internal Server Error to tools/call (first time": 1,
		"answered 400": 0, "mcptrail: target answered": 2,
	})
	x := []byte(runIn(t, home, "export", "-T", "json"))
	failed, statuses := checkFailureExport(t, x)
	// The two probes without the token got 401; the third, the 400.
	if d := diff([]string{"http-error", "http-error", "error"}, statuses["server/discover"]); d != "" {
		t.Errorf("server/discover calls (-want +got):\n%s", d)
	}
	if failed["tools/call"] != 2 {
		t.Errorf("%d failed tools/call, want the 2 calls of boom", failed["tools/call"])
	}
	var rows []struct {
		Errors int `json:"errors"`
	}
	if err := json.Unmarshal([]byte(runIn(t, home, "sessions", "--json")), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("sessions --json: %v %+v", err, rows)
	}
	if want := failed["*"]; rows[0].Errors != want {
		t.Errorf("sessions says %d errors, want %d", rows[0].Errors, want)
	}
	text := runIn(t, home, "export", "-T", "text")
	if !strings.Contains(text, "http-error-status") || !strings.Contains(text, "http-error") {
		t.Errorf("the text export shows no HTTP failure:\n%s", text)
	}
}

// TestTargetDownVisible: with nothing listening at the target, go-sdk
// clients get mcptrail's 502; stderr says so once, and the export counts
// and flags each failed call.
func TestTargetDownVisible(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tp := startTap(t, "http://"+deadAddr(t)+"/mcp")
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, nil)
	for range 2 {
		if cs, err := client.Connect(ctx, sdkClient(tp.url("/mcp"), false), nil); err == nil {
			cs.Close()
			t.Fatal("connected to a target that is down")
		}
	}
	tp.stop(t)
	checkStderrOnce(t, tp.stderr.String(), map[string]int{
		"mcptrail: target unreachable: answered 502 Bad Gateway to ": 1,
		"connection refused (first time; see the capture)":           1,
	})
	failed, _ := checkFailureExport(t, runExport(t, tp.capture))
	if failed["*"] < 2 {
		t.Errorf("%d failed calls, want one per client at least", failed["*"])
	}
}

// checkStderrOnce checks how many times each substring occurs in stderr.
func checkStderrOnce(t *testing.T, stderr string, want map[string]int) {
	t.Helper()
	for s, n := range want {
		if got := strings.Count(stderr, s); got != n {
			t.Errorf("stderr has %q %d times, want %d; stderr:\n%s", s, got, n, stderr)
		}
	}
}

// checkFailureExport checks an export: every call that failed at the HTTP
// level (an error whose code is an HTTP status) has one http-error-status
// finding, no other finding is raised, and the summary's errors count
// every failed call. It returns the failed calls per method, "*" counting all,
// and the statuses of the calls per method.
func checkFailureExport(t *testing.T, export []byte) (map[string]int, map[string][]string) {
	t.Helper()
	var x struct {
		Calls []struct {
			Method string `json:"method"`
			Status string `json:"status"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"calls"`
		Summary struct {
			Methods []struct {
				Name   string `json:"name"`
				Errors int    `json:"errors"`
			} `json:"methods"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(export, &x); err != nil {
		t.Fatal(err)
	}
	failed, statuses, httpFailed := map[string]int{}, map[string][]string{}, 0
	for i, c := range x.Calls {
		// A probe the server refused with a JSON-RPC error (a 2025
		// server's 400), after which the client initialized, is era
		// negotiation: the summary and sessions count no error for it.
		negotiation := c.Method == "server/discover" && c.Status == "error" && i+1 < len(x.Calls) && x.Calls[i+1].Method == "initialize"
		if (c.Status == "error" || c.Status == "http-error" || c.Status == "tool-error") && !negotiation {
			failed[c.Method]++
			failed["*"]++
		}
		// A 401 challenge to a request without a token starts the
		// authorization flow: the call failed, but no rule flags it.
		challenge := c.Error != nil && c.Error.Code == 401 && strings.Contains(c.Error.Message, "WWW-Authenticate")
		if c.Error != nil && c.Error.Code >= 401 && c.Error.Code <= 599 && !challenge {
			httpFailed++
		}
		statuses[c.Method] = append(statuses[c.Method], c.Status)
	}
	for _, m := range x.Summary.Methods {
		if m.Errors != failed[m.Name] {
			t.Errorf("summary: %s has %d errors, want %d", m.Name, m.Errors, failed[m.Name])
		}
	}
	findings := exportFindings(t, export)
	n := 0
	for _, f := range findings {
		if f == "http-error-status" {
			n++
		} else {
			t.Errorf("finding %s; want only http-error-status", f)
		}
	}
	if n != httpFailed || n == 0 {
		t.Errorf("%d http-error-status findings for %d calls that failed at the HTTP level", n, httpFailed)
	}
	return failed, statuses
}

// TestForwardOriginDownVisible: through `mcptrail http --forward`, with
// nothing listening at the MCP origin, go-sdk clients get mcptrail's 502.
// Their POSTs are MCP frames (not plain exchange records) whatever the
// answer, each call is http-error and flagged as the reverse proxy's are,
// and no note claims the origin, never reached, left the body unread.
func TestForwardOriginDownVisible(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	origin := "http://" + deadAddr(t)
	tp := startForward(t)
	proxy, _ := url.Parse("http://" + tp.addr)
	hc := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, nil)
	for range 2 {
		tr := &mcp.StreamableClientTransport{Endpoint: origin + "/mcp", HTTPClient: hc, MaxRetries: -1}
		if cs, err := client.Connect(ctx, tr, nil); err == nil {
			cs.Close()
			t.Fatal("connected to an origin that is down")
		}
	}
	hc.CloseIdleConnections()
	tp.stop(t)
	frames := 0
	for _, r := range tp.records(t) {
		switch {
		case r.Type == capture.TypeFrame:
			frames++
		case r.Type == capture.TypeExchange:
			t.Errorf("an MCP POST was recorded as a plain exchange: %+v", r.Exchange)
		case r.Type == capture.TypeNote && r.Note == "body-unread":
			t.Errorf("note %s: %s", r.Note, r.Text)
		}
	}
	if frames < 4 {
		t.Errorf("%d frames, want a request and its 502 per client at least", frames)
	}
	failed, _ := checkFailureExport(t, runExport(t, tp.capture))
	if failed["*"] < 2 {
		t.Errorf("%d failed calls, want one per client at least", failed["*"])
	}
	if code, text := runCheck(t, tp.capture); code == 0 {
		t.Errorf("check passed a session whose every call failed 502:\n%s", text)
	}
}
