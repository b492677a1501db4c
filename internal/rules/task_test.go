package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// taskMeta is a modern request's _meta declaring the Tasks extension.
const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` +
	`{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// taskCall is a tools/call declaring the extension.
func taskCall(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"report","arguments":{},` + taskMeta + `}}`
}

// tasksReq is a tasks/* request for task tid.
func tasksReq(id, method, tid, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"taskId":%q%s,%s}}`, id, method, tid, extra, taskMeta)
}

// taskState is a task object of status with pollIntervalMs poll; extra
// is spliced in (start it with a comma).
func taskState(resultType, status string, poll int, extra string) string {
	return fmt.Sprintf(`{"resultType":%q,"taskId":"t1","status":%q,"createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"pollIntervalMs":%d%s}`,
		resultType, status, poll, extra)
}

const taskDone = `,"result":{"content":[]}`

// taskAsk is the inputRequests of an input_required task state: key k
// asks message m.
func taskAsk(k, m string) string {
	return `,"inputRequests":{"` + k + `":{"method":"elicitation/create","params":{"mode":"form","message":"` + m +
		`","requestedSchema":{"type":"object","properties":{}}}}}`
}

// taskSession creates task t1 (pollIntervalMs poll) and follows it with
// steps.
func taskSession(poll int, steps ...step) []step {
	return append([]step{c2s(taskCall("1")), s2c(res("1", taskState("task", "working", poll, "")))}, steps...)
}

// taskSessions raise each Tasks rule (coverage_test.go).
func taskSessions() map[string][]step {
	get := func(id string) step { return c2s(tasksReq(id, "tasks/get", "t1", "")) }
	httpHeaders := func(name string) map[string]string {
		return map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/get", "Mcp-Name": name}
	}
	return map[string][]step{
		finding.TaskNameHeader: {post("g", tasksReq("1", "tasks/get", "t1", ""), httpHeaders("t2"))},
		// records are 1 ms apart: any poll interval above that is too fast.
		finding.TaskPollTooFast:         taskSession(5000, get("2"), s2c(res("2", taskState("complete", "completed", 5000, taskDone)))),
		finding.TaskNeverTerminal:       append(taskSession(0, get("2"), s2c(res("2", taskState("complete", "working", 0, "")))), endRec()),
		finding.TaskUpdateAfterTerminal: taskSession(0, get("2"), s2c(res("2", taskState("complete", "completed", 0, taskDone))), c2s(tasksReq("3", "tasks/update", "t1", `,"inputResponses":{}`))),
		finding.TaskErrorCode:           taskSession(0, get("2"), s2c(`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"busy"}}`)),
		finding.TaskUndeclared:          {c2s(tool("1", "report", "{}", "")), s2c(res("1", taskState("task", "working", 0, "")))},
		finding.TaskUnsupportedMethod: {c2s(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p",` + taskMeta + `}}`),
			s2c(res("1", taskState("task", "working", 0, "")))},
		finding.TaskUnknown:            {get("1")},
		finding.TaskInvalid:            taskSession(0, get("2"), s2c(res("2", taskState("complete", "done", 0, "")))),
		finding.TaskCancelNotification: taskSession(0, c2s(notif("notifications/cancelled", `{"requestId":1}`))),
		finding.TaskInputNotOutstanding: taskSession(0, get("2"), s2c(res("2", taskState("complete", "input_required", 0, taskAsk("a", "m")))),
			c2s(tasksReq("3", "tasks/update", "t1", `,"inputResponses":{"b":{"action":"decline"}}`))),
		finding.TaskInputKeyReused: taskSession(0, get("2"), s2c(res("2", taskState("complete", "input_required", 0, taskAsk("a", "m")))),
			get("3"), s2c(res("3", taskState("complete", "input_required", 0, taskAsk("a", "another question"))))),
	}
}

// TestTaskRules checks each Tasks rule is raised exactly once by its
// session, and a clean task session (polled at its interval over HTTP
// with Mcp-Name set) raises nothing.
func TestTaskRules(t *testing.T) {
	t.Parallel()
	for id, steps := range taskSessions() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			n := 0
			for _, f := range load(t, steps).Findings.Slice() {
				if f.Rule == id {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s raised %d times, want 1", id, n)
			}
		})
	}
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		hdr := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/get", "Mcp-Name": "t1"}
		steps := []step{
			post("c", taskCall("1"), modernHeaders("report")), answer("c", 200, res("1", taskState("task", "working", 0, "")), jsonCT),
			post("g", tasksReq("2", "tasks/get", "t1", ""), hdr), answer("g", 200, res("2", taskState("complete", "completed", 0, taskDone)), jsonCT),
			endRec(),
		}
		if got := findingLines(load(t, steps).Findings.Slice()); len(got) != 0 {
			t.Errorf("a clean task session raised %q", got)
		}
	})
	t.Run("cancel not also unknown", func(t *testing.T) {
		t.Parallel()
		steps := taskSessions()[finding.TaskCancelNotification]
		for _, f := range load(t, steps).Findings.Slice() {
			if f.Rule == finding.CancelUnknown {
				t.Errorf("a task's notifications/cancelled also raised %s: %s", f.Rule, f.Message)
			}
		}
	})
	t.Run("clean input", func(t *testing.T) {
		t.Parallel()
		// A poll repeats the outstanding request (its members reordered),
		// the update answers it, and the task ends.
		again := `,"inputRequests":{"a":{"params":{"requestedSchema":{"properties":{},"type":"object"},"message":"m","mode":"form"},"method":"elicitation/create"}}`
		steps := taskSession(0,
			c2s(tasksReq("2", "tasks/get", "t1", "")), s2c(res("2", taskState("complete", "input_required", 0, taskAsk("a", "m")))),
			c2s(tasksReq("3", "tasks/get", "t1", "")), s2c(res("3", taskState("complete", "input_required", 0, again))),
			c2s(tasksReq("4", "tasks/update", "t1", `,"inputResponses":{"a":{"action":"decline"}}`)), s2c(res("4", `{"resultType":"complete"}`)),
			c2s(tasksReq("5", "tasks/get", "t1", "")), s2c(res("5", taskState("complete", "completed", 0, taskDone))),
			endRec())
		for _, f := range load(t, steps).Findings.Slice() {
			if strings.HasPrefix(f.Rule, "task-") {
				t.Errorf("a clean input task session raised %s: %s", f.Rule, f.Message)
			}
		}
	})
}
