package http_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// taskMeta is the _meta of a 2026-07-28 request that declares the Tasks
// extension (modelcontextprotocol/ext-tasks, specification/draft/tasks.md).
const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` +
	`{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// taskTarget is a Streamable HTTP server of one task, "t-1": a tools/call
// answers a CreateTaskResult, the first tasks/get working, the next ones
// completed. No SDK implements the extension's server side yet, so it is
// scripted; the proxy and the store under test are the real ones.
func taskTarget(t *testing.T) *httptest.Server {
	t.Helper()
	var polls atomic.Int32
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		task := `"taskId":"t-1","createdAt":"2026-07-28T09:00:00Z","lastUpdatedAt":"2026-07-28T09:00:00Z","ttlMs":null,"pollIntervalMs":0`
		var result string
		switch msg.Method {
		case "tools/call":
			result = `{"resultType":"task","status":"working",` + task + `}`
		case "tasks/get":
			if polls.Add(1) == 1 {
				result = `{"resultType":"complete","status":"working",` + task + `}`
			} else {
				result = `{"resultType":"complete","status":"completed",` + task + `,"result":{"content":[]}}`
			}
		default:
			http.Error(w, "unexpected "+msg.Method, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":`+result+`}`)
	}))
}

// TestTaskOverHTTP drives a task through the real `mcptrail http`: a
// tools/call answered with a CreateTaskResult, then two tasks/get, the
// first with Mcp-Name equal to the taskId, the second with another. The
// export shows one task operation of three rounds, completed, and exactly
// one task-name-header finding, on the second poll.
func TestTaskOverHTTP(t *testing.T) {
	t.Parallel()
	target := taskTarget(t)
	defer target.Close()
	tp := startTap(t, target.URL+"/mcp")
	post(t, tp.url("/mcp"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report","arguments":{},`+taskMeta+`}}`,
		modernHeaders("Mcp-Name", "report"))
	for i, name := range []string{"t-1", "t-2"} {
		id := string(rune('2' + i))
		post(t, tp.url("/mcp"), `{"jsonrpc":"2.0","id":`+id+`,"method":"tasks/get","params":{"taskId":"t-1",`+taskMeta+`}}`,
			modernHeaders("Mcp-Method", "tasks/get", "Mcp-Name", name))
	}
	tp.stop(t)
	var doc struct {
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
		Operations []struct {
			Status string `json:"status"`
			Task   *struct {
				ID     string `json:"id"`
				Status string `json:"status"`
				Polls  int    `json:"polls"`
			} `json:"task"`
			Rounds []struct {
				Pairing string `json:"pairing"`
			} `json:"rounds"`
		} `json:"operations"`
	}
	if err := json.Unmarshal(runExport(t, tp.capture), &doc); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range doc.Findings {
		rules = append(rules, f.Rule+": "+f.Message)
	}
	if len(rules) != 1 || !strings.HasPrefix(rules[0], "task-name-header: ") || !strings.Contains(rules[0], `"t-2"`) {
		t.Errorf("findings %q, want one task-name-header naming Mcp-Name t-2", rules)
	}
	if len(doc.Operations) != 1 {
		t.Fatalf("%d operations, want 1", len(doc.Operations))
	}
	op := doc.Operations[0]
	if op.Task == nil || op.Task.ID != "t-1" || op.Task.Status != "completed" || op.Task.Polls != 2 || op.Status != "ok" || len(op.Rounds) != 3 {
		t.Errorf("operation %+v, want task t-1 completed after 2 polls, status ok, 3 rounds", op)
	}
}
