package http_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestHTTPSSE records a real session of the 2024-11-05 HTTP+SSE transport
// through the real `mcptrail http`, in both proxy modes: the TypeScript
// SDK v1's SSEClientTransport (testdata/sseclient.mjs) against
// @modelcontextprotocol/server-everything's `sse` server (the SDK's
// SSEServerTransport). The endpoint event keeps its type in the capture
// (and no other event does), the export names the transport and its
// endpoint, the calls pair with their answers from the stream, and the
// 2025-11-25 session raises no finding at all: not the deprecation (the
// transport is current for it), nor an invalid frame for the endpoint
// event or the 202 "Accepted" bodies.
func TestHTTPSSE(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	port := freePort(t)
	srv := exec.Command("sh", "-c", `exec node "$0" sse 1>&2`,
		filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	stderr, done := new(testbin.Buffer), make(chan error, 1)
	testbin.StartListener(t, srv, stderr, done, regexp.MustCompile(`Server is running on port (\d+)`))
	t.Cleanup(func() { _ = srv.Process.Kill(); <-done })
	server := "http://127.0.0.1:" + strconv.Itoa(port)

	t.Run("reverse", func(t *testing.T) {
		t.Parallel()
		tp := startTap(t, server+"/sse")
		out := runNode(t, dir, "sseclient.mjs", tp.url("/sse"))
		tp.stop(t)
		checkSSESession(t, tp, out, "/message")
	})
	t.Run("forward", func(t *testing.T) {
		t.Parallel()
		tp := startForward(t)
		out := runNode(t, dir, "sseclient.mjs", server+"/sse", "http://"+tp.addr)
		tp.stop(t)
		checkSSESession(t, tp, out, server+"/message")
	})
}

// checkSSESession checks one proxy mode's capture of sseclient.mjs's
// session; endpoint is the endpoint the export must name.
func checkSSESession(t *testing.T, tp *tap, out []byte, endpoint string) {
	t.Helper()
	if !strings.Contains(string(out), "Echo: over sse") {
		t.Fatalf("the SDK client did not get its echo:\n%s", out)
	}
	events := 0
	for _, r := range tp.records(t) {
		if r.Type != capture.TypeFrame || r.HTTP == nil || r.HTTP.Event == "" {
			continue
		}
		events++
		if r.HTTP.Event != "endpoint" || r.HTTP.Method != "GET" || !strings.HasPrefix(r.Text, "/message?sessionId=") {
			t.Errorf("frame %d: event %q on %s with data %q, want the endpoint event on the GET", r.Seq, r.HTTP.Event, r.HTTP.Method, r.Text)
		}
	}
	if events != 1 {
		t.Errorf("%d frames with an event type, want the one endpoint event", events)
	}
	var doc struct {
		Session struct {
			Eras    []string `json:"eras"`
			HTTPSSE *struct {
				Seq      int    `json:"seq"`
				Endpoint string `json:"endpoint"`
			} `json:"http_sse"`
		} `json:"session"`
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
		Calls []struct {
			Method string `json:"method"`
			Status string `json:"status"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(runExport(t, tp.capture), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Session.HTTPSSE; s == nil || s.Endpoint != endpoint || s.Seq == 0 {
		t.Errorf("session.http_sse %+v, want the endpoint %s", s, endpoint)
	}
	if len(doc.Findings) != 0 {
		t.Errorf("findings %+v, want none in a 2025 session", doc.Findings)
	}
	got := map[string]string{}
	for _, c := range doc.Calls {
		got[c.Method] = c.Status
	}
	for _, m := range []string{"initialize", "tools/list", "tools/call"} {
		if got[m] != "ok" {
			t.Errorf("calls %v: %s is not answered ok", got, m)
		}
	}
	if len(doc.Session.Eras) != 1 || doc.Session.Eras[0] != "legacy" {
		t.Errorf("eras %v, want legacy", doc.Session.Eras)
	}
}
