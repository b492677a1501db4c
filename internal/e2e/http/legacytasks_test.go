package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestLegacyTasksFromSDK records a real 2025-11-25 tasks session through
// the real `mcptrail http`: the TypeScript SDK v1's own example pair
// (@modelcontextprotocol/sdk dist/esm/examples: server/simpleTaskInteractive
// and client/simpleTaskInteractiveClient), whose tools/call carries a task
// param and whose results come through tasks/get and tasks/result, with an
// elicitation and a sampling request on the way. That is the core tasks of
// 2025-11-25, not the Tasks extension: the export must show no task
// operation and no finding, and the elicitation as its one ledger row.
func TestLegacyTasksFromSDK(t *testing.T) {
	t.Parallel()
	examples := filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "sdk", "dist", "esm", "examples")
	port := freePort(t)
	srv := exec.Command("sh", "-c", `exec node "$0" 1>&2`, filepath.Join(examples, "server", "simpleTaskInteractive.js"))
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	stderr, done := new(testbin.Buffer), make(chan error, 1)
	testbin.StartListener(t, srv, stderr, done, regexp.MustCompile(`Starting server on (http://\S+)`))
	t.Cleanup(func() { _ = srv.Process.Kill(); <-done })

	tp := startTap(t, "http://127.0.0.1:"+strconv.Itoa(port)+"/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := exec.CommandContext(ctx, "node", filepath.Join(examples, "client", "simpleTaskInteractiveClient.js"), "--url", tp.url("/mcp"))
	var out bytes.Buffer
	client.Stdout, client.Stderr = &out, &out
	stdin, err := client.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	// Its readline drops lines that arrive before a question and gives up
	// at EOF, so it gets what `yes y` gives: answers until it exits.
	go func() {
		for {
			if _, err := stdin.Write([]byte("y\n")); err != nil {
				return
			}
		}
	}()
	if err := client.Wait(); err != nil {
		t.Fatalf("the SDK client: %v\n%s", err, out.Bytes())
	}
	if !strings.Contains(out.String(), "Deleted 'important.txt'") {
		t.Fatalf("the SDK client did not finish its task demo:\n%s", out.Bytes())
	}
	tp.stop(t)

	var doc struct {
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
		Operations   []json.RawMessage `json:"operations"`
		Elicitations []struct {
			Action string `json:"action"`
		} `json:"elicitations"`
		Calls []struct {
			Method string `json:"method"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(runExport(t, tp.capture), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 0 {
		t.Errorf("findings %+v, want none", doc.Findings)
	}
	if len(doc.Operations) != 0 {
		t.Errorf("%d operations, want none: 2025-11-25 tasks are not the extension's", len(doc.Operations))
	}
	if len(doc.Elicitations) != 1 || doc.Elicitations[0].Action != "accept" {
		t.Errorf("elicitations %+v, want one accepted", doc.Elicitations)
	}
	methods := map[string]int{}
	for _, c := range doc.Calls {
		methods[c.Method]++
	}
	if methods["tasks/get"] == 0 || methods["tasks/result"] == 0 {
		t.Errorf("calls by method %v: the session did not go through tasks/get and tasks/result", methods)
	}
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago, for
// a server that takes its port from the environment.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
