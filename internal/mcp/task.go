package mcp

import (
	"hash/fnv"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The Tasks extension (modelcontextprotocol/ext-tasks,
// specification/draft/tasks.md): a tools/call answered with a
// CreateTaskResult (resultType "task") lives on through tasks/get,
// tasks/update and tasks/cancel, and notifications/tasks on
// subscriptions/listen, until a terminal status. This is not the
// 2025-11-25 core tasks (a params.task member on the request, tasks/result,
// tasks/list), which mcptrail does not correlate.
const (
	// ExtensionTasks is the extension's key in capabilities.extensions.
	ExtensionTasks = "io.modelcontextprotocol/tasks"
	// ResultTask is the resultType of a CreateTaskResult (§ Polymorphic
	// Results).
	ResultTask = "task"

	MethodTasksGet    = "tasks/get"
	MethodTasksUpdate = "tasks/update"
	MethodTasksCancel = "tasks/cancel"
	// MethodTaskStatus is the status notification (§ Task Status
	// Notifications); its params are a whole DetailedTask.
	MethodTaskStatus = "notifications/tasks"

	// CodeMissingClientCapability is -32021, which a server returns when a
	// request needs an extension the client did not declare (§ Capability
	// Negotiation; § Error Handling).
	CodeMissingClientCapability = -32021
)

// Task statuses (§ Task Status).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// TaskMethod reports whether method is one of the extension's requests,
// which name their task by params.taskId.
func TaskMethod(method string) bool {
	switch method {
	case MethodTasksGet, MethodTasksUpdate, MethodTasksCancel:
		return true
	}
	return false
}

// TaskTerminal reports whether status is terminal: completed, failed or
// cancelled.
func TaskTerminal(status string) bool {
	switch status {
	case TaskCompleted, TaskFailed, TaskCancelled:
		return true
	}
	return false
}

// TaskStatusKnown reports whether status is one the extension defines.
func TaskStatusKnown(status string) bool {
	return status == TaskWorking || status == TaskInputRequired || TaskTerminal(status)
}

// Task is what correlation reads of a Task object: a CreateTaskResult, a
// tasks/get result or notifications/tasks params. Nothing of it aliases
// the value it was read from.
type Task struct {
	// ID is taskId when it is a string; HasID reports that it was.
	ID    string
	HasID bool
	// Status is status when it is a string ("" otherwise), verbatim.
	Status string
	// PollIntervalMS is pollIntervalMs when it is a non-negative integer
	// number; HasPollInterval reports that it was.
	PollIntervalMS  int64
	HasPollInterval bool
	// TTLMS is ttlMs when it is a non-negative integer; HasTTL reports
	// that it was (null, unlimited, leaves it false).
	TTLMS  int64
	HasTTL bool
	// InputRequests lists the keys and methods of inputRequests, sorted by
	// key (an input_required task's outstanding requests).
	InputRequests []InputRequest
	// HasResult and HasError report the result and error members; IsError
	// reports result.isError == true (a completed tool error).
	HasResult, HasError bool
	IsError             bool
	// ErrorCode is error.code when it is an integer.
	ErrorCode int64
}

// ParseTask reads a Task object. Absent members keep their zero value; a
// value that is not an object gives the zero Task.
func ParseTask(v jsontext.Value) Task {
	var t Task
	eachMember(v, func(name, val []byte) bool {
		switch string(name) {
		case "taskId":
			t.ID, t.HasID = jsonraw.String(val)
		case "status":
			t.Status, _ = jsonraw.String(val)
		case "pollIntervalMs":
			t.PollIntervalMS, t.HasPollInterval = millis(val)
		case "ttlMs":
			t.TTLMS, t.HasTTL = millis(val)
		case "inputRequests":
			t.InputRequests = parseInputRequests(val)
		case "result":
			t.HasResult = true
			t.IsError = string(jsonraw.Member(val, "isError")) == "true"
		case "error":
			t.HasError = true
			t.ErrorCode, _ = integer(jsonraw.Member(val, "code"))
		}
		return true
	})
	return t
}

// InputRequestSums returns, per key of a task state's inputRequests, a
// hash of the request it names in canonical form (RFC 8785, so member
// order and spacing do not count; a value that cannot be canonicalized is
// hashed verbatim). Two requests under one key differ when their sums do.
// nil when the state has no inputRequests object.
func InputRequestSums(v jsontext.Value) map[string]uint64 {
	var out map[string]uint64
	eachMember(v, func(name, inputs []byte) bool {
		if string(name) != "inputRequests" {
			return true
		}
		eachMember(inputs, func(key, val []byte) bool {
			if out == nil {
				out = make(map[string]uint64)
			}
			c := jsontext.Value(val).Clone()
			if c.Canonicalize() != nil {
				c = jsontext.Value(val)
			}
			h := fnv.New64a()
			h.Write(c)
			out[string(key)] = h.Sum64()
			return true
		})
		return false
	})
	return out
}

// millis reads a JSON number that is a whole, non-negative number of
// milliseconds (no fraction or exponent).
func millis(v []byte) (int64, bool) {
	if n, ok := integer(v); ok && n >= 0 {
		return n, true
	}
	return 0, false
}

// integer reads a JSON number written as an integer.
func integer(v []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

// TaskID returns params.taskId of a tasks/* request; ok is false when it
// is absent or not a string.
func TaskID(params jsontext.Value) (string, bool) {
	return jsonraw.String(jsonraw.Member(params, "taskId"))
}

// DeclaresTasks reports whether a client's capabilities (a modern
// request's _meta clientCapabilities) declare the extension as an object.
func DeclaresTasks(caps jsontext.Value) bool {
	declared := false
	eachMember(caps, func(name, val []byte) bool {
		if string(name) == "extensions" {
			declared = isObject(jsonraw.Member(val, ExtensionTasks))
		}
		return true
	})
	return declared
}
