package store

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// taskMeta is the _meta of a modern request declaring the Tasks extension.
const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` +
	`{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func taskCall(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"report","arguments":{},` + taskMeta + `}}`
}

func taskGet(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tasks/get","params":{"taskId":"t1",` + taskMeta + `}}`
}

func taskUpdate(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tasks/update","params":{"taskId":"t1","inputResponses":{"a":{"action":"accept","content":{"x":1}}},` + taskMeta + `}}`
}

// taskIs is a task result of resultType rt and status, extra spliced in.
func taskIs(id, rt, status, extra string) string {
	return res(id, `{"resultType":"`+rt+`","taskId":"t1","status":"`+status+`","ttlMs":null,"pollIntervalMs":0`+extra+`}`)
}

// TestTaskOperation: the task's rounds, its wait (input_required to the
// answering tasks/update), its end at the terminal status whatever polls
// follow, and its ledger row asked once for two polls.
func TestTaskOperation(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		c2s(0, taskCall("1")), s2c(10, taskIs("1", "task", "working", "")),
		c2s(100, taskGet("2")), s2c(10, taskIs("2", "complete", "input_required", `,"inputRequests":`+elicit("a"))),
		c2s(100, taskGet("3")), s2c(10, taskIs("3", "complete", "input_required", `,"inputRequests":`+elicit("a"))),
		c2s(500, taskUpdate("4")), s2c(10, res("4", `{"resultType":"complete"}`)),
		c2s(100, taskGet("5")), s2c(10, taskIs("5", "complete", "completed", `,"result":{"content":[],"isError":true}`)),
		c2s(1000, taskGet("6")), s2c(10, taskIs("6", "complete", "completed", `,"result":{"content":[],"isError":true}`)),
		endRec(),
	})
	if n := snap.Operations.Len(); n != 1 {
		t.Fatalf("%d operations, want 1", n)
	}
	op := snap.Operations.At(0)
	if len(op.Rounds) != 6 || op.Task.ID != "t1" || op.Task.Status != "completed" || op.Task.Polls != 4 || op.Task.Updates != 1 {
		t.Errorf("operation %+v: want 6 rounds, task t1 completed, 4 polls, 1 update", op)
	}
	if op.Status != StatusToolError {
		t.Errorf("status %q, want %q (completed with isError)", op.Status, StatusToolError)
	}
	// Asked at the first input_required answer (+120 ms), answered by the
	// update (+730 ms); the task was seen completed at +850 ms, and the
	// poll after that does not extend it.
	if op.WaitMS != 610 || op.DurationMS != 850 || op.ToolMS != 240 {
		t.Errorf("wait %v, duration %v, tool %v; want 610, 850, 240", op.WaitMS, op.DurationMS, op.ToolMS)
	}
	if snap.Ledger.Len() != 1 {
		t.Fatalf("%d ledger rows, want 1 (two polls repeat one question)", snap.Ledger.Len())
	}
	if row := snap.Ledger.At(0); row.Status != LedgerAnswered || row.Action != "accept" || row.Root.Call != 0 || row.Key != "a" {
		t.Errorf("ledger row %+v: want key a answered accept, root call 0", row)
	}
	if got := findingLines(snap.Findings.Slice()); len(got) != 0 {
		t.Errorf("findings %q, want none", got)
	}
}

// TestLegacyTasksNotMisread: a 2025-11-25 session's core tasks (a task
// param on the request, result.task, tasks/get, tasks/result) is not the
// extension: no operation, no task finding, even on an error.
func TestLegacyTasksNotMisread(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		c2s(0, req("0", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"tasks":{}},"clientInfo":{"name":"c","version":"1"}}`)),
		s2c(5, res("0", `{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}`)),
		c2s(5, req("1", "tools/call", `{"name":"report","arguments":{},"task":{"ttl":60000}}`)),
		s2c(5, res("1", `{"task":{"taskId":"t1","status":"working","createdAt":"x","ttl":60000,"pollInterval":100}}`)),
		c2s(5, req("2", "tasks/get", `{"taskId":"t1"}`)), s2c(5, errRes("2", -32000, "busy")),
		c2s(5, req("3", "tasks/get", `{"taskId":"t1"}`)), s2c(5, res("3", `{"taskId":"t1","status":"completed","createdAt":"x","ttl":60000}`)),
		c2s(5, req("4", "tasks/result", `{"taskId":"t1"}`)), s2c(5, res("4", `{"content":[]}`)),
		endRec(),
	})
	if n := snap.Operations.Len(); n != 0 {
		t.Errorf("%d operations, want none", n)
	}
	if got := findingLines(snap.Findings.Slice()); len(got) != 0 {
		t.Errorf("findings %q, want none", got)
	}
}

// TestForgetKeepsRunningTask: a forgetting store keeps a running task's
// rounds after each answer, so that later polls still join it, and drops
// them once the task ended.
func TestForgetKeepsRunningTask(t *testing.T) {
	t.Parallel()
	completed := 0
	f := newForgetFeed(&Options{Forget: true, OnChange: func(ch *Change) {
		if ch.Kind == ChangeOperationCompleted {
			completed++
			if op := ch.OperationAt(ch.Operation); op == nil || op.Task.Status != "completed" || len(op.Rounds) != 3 {
				t.Errorf("completed operation %+v, want the task completed after 3 rounds", op)
			}
		}
	}})
	f.frame(capture.C2S, "", taskCall("1"))
	f.frame(capture.S2C, "", taskIs("1", "task", "working", ""))
	f.frame(capture.C2S, "", taskGet("2"))
	f.frame(capture.S2C, "", taskIs("2", "complete", "working", ""))
	f.frame(capture.C2S, "", taskGet("3"))
	f.frame(capture.S2C, "", taskIs("3", "complete", "completed", `,"result":{"content":[]}`))
	if completed != 1 {
		t.Errorf("%d operation-completed changes, want 1", completed)
	}
	if n := len(f.s.calls.open); n != 0 {
		t.Errorf("%d calls kept after the task ended, want 0", n)
	}
}
