package rules

import "github.com/mcptrail/mcptrail/internal/finding"

// taskRules are the Tasks extension's rules: the HTTP one is raised by
// HTTP (http.go), the others by the store's task correlation.
func taskRules() []finding.Rule {
	const c = finding.Protocol
	return []finding.Rule{
		{ID: finding.TaskNameHeader, Category: finding.HTTP, Severity: finding.Error,
			Summary: "a tasks/get, tasks/update or tasks/cancel over HTTP lacks Mcp-Name or it differs from params.taskId",
			Help: "Over Streamable HTTP the client MUST set Mcp-Name to params.taskId on every tasks/* request, so that " +
				"intermediaries and load balancers route it to the server instance that holds the task.",
			Spec: tasksSpec + "§ Streamable HTTP: Routing Headers"},
		{ID: finding.TaskPollTooFast, Category: finding.Performance, Severity: finding.Warning,
			Summary: "a client polls tasks/get faster than the task's pollIntervalMs",
			Help: "Clients SHOULD respect the pollIntervalMs of the latest task state they received; servers MAY rate-limit " +
				"faster polling. Measured from the previous tasks/get request of the task (or the CreateTaskResult) to this one.",
			Spec: tasksSpec + "§ Task Polling"},
		{ID: finding.TaskNeverTerminal, Category: c, Severity: finding.Warning,
			Summary: "the capture ended with a task never seen completed, failed or cancelled",
			Help: "Clients SHOULD keep polling (or listening) until the task reaches a terminal status or they cancel it. A " +
				"task left working may be abandoned by the client, or still running after the capture ended.",
			Spec: tasksSpec + "§ Task Polling; § Task Status"},
		{ID: finding.TaskUpdateAfterTerminal, Category: c, Severity: finding.Warning,
			Summary: "a tasks/update was sent for a task already seen in a terminal status",
			Help: "Each inputResponses key must correspond to a currently outstanding inputRequest; a terminal task has none, " +
				"and servers ignore such responses.",
			Spec: tasksSpec + "§ Task Update Requests"},
		{ID: finding.TaskErrorCode, Category: c, Severity: finding.Error,
			Summary: "a tasks/* request is answered with an error code the extension does not define, or -32021 to a declaring client",
			Help: "Servers answer an invalid or unknown taskId with -32602, internal errors with -32603, and a client that did " +
				"not declare io.modelcontextprotocol/tasks with -32021 (Missing Required Client Capability). -32021 to a " +
				"request that declared the extension is wrong.",
			Spec: tasksSpec + "§ Error Handling (Protocol Errors); § Capability Negotiation"},
		{ID: finding.TaskUndeclared, Category: c, Severity: finding.Error,
			Summary: "a CreateTaskResult answers a request that did not declare the Tasks extension",
			Help: "A server MUST NOT return CreateTaskResult to a client that did not include io.modelcontextprotocol/tasks in " +
				"the extensions of that request's clientCapabilities, whatever it declared before; it returns -32021 instead.",
			Spec: tasksSpec + "§ Capability Negotiation"},
		{ID: finding.TaskUnsupportedMethod, Category: c, Severity: finding.Error,
			Summary: "a CreateTaskResult answers a method other than tools/call",
			Help: "Only tools/call supports task-augmented execution; a client MUST treat a CreateTaskResult for another " +
				"request type as an invalid response.",
			Spec: tasksSpec + "§ Supported Methods; § Capability Negotiation"},
		{ID: finding.TaskUnknown, Category: c, Severity: finding.Warning,
			Summary: "a tasks/* request or notifications/tasks names a taskId no CreateTaskResult in the capture created",
			Help: "A task is created by a CreateTaskResult; a taskId never returned by one may belong to a task created before " +
				"the capture began (clients persist task ids across restarts), so this is a warning.",
			Spec: tasksSpec + "§ Task Creation; § Task Polling"},
		{ID: finding.TaskInvalid, Category: c, Severity: finding.Error,
			Summary: "a task object has no taskId, an unknown status, a status without its payload, or leaves a terminal status",
			Help: "A Task carries a string taskId and one of working, input_required, completed, failed, cancelled; " +
				"input_required carries inputRequests, completed a result, failed an error; a terminal status is final.",
			Spec: tasksSpec + "§ Tasks; § Task Status"},
		{ID: finding.TaskCancelNotification, Category: c, Severity: finding.Error,
			Summary: "a notifications/cancelled names the tools/call that created a task",
			Help: "The notifications/cancelled notification MUST NOT be used for task cancellation: a client sends tasks/cancel " +
				"naming the taskId. The tools/call was already answered with its CreateTaskResult, so the notification cancels " +
				"nothing (it is not also reported as cancel-unknown-request).",
			Spec: tasksSpec + "§ Task Cancellation"},
		{ID: finding.TaskInputNotOutstanding, Category: c, Severity: finding.Error,
			Summary: "a tasks/update answers inputResponses keys not among the task's outstanding inputRequests",
			Help: "Each inputResponses key MUST correspond to a currently-outstanding inputRequest key: one of the inputRequests " +
				"of the latest input_required state seen (a tasks/get result or notifications/tasks). Servers SHOULD ignore the " +
				"others. A tasks/update for a terminal task is task-update-after-terminal instead.",
			Spec: tasksSpec + "§ Task Update Requests (UpdateTaskRequest)"},
		{ID: finding.TaskInputKeyReused, Category: c, Severity: finding.Error,
			Summary: "an inputRequests key names a different request than it named earlier in the task",
			Help: "Each request key in inputRequests MUST be unique over the lifetime of a single task: a server MUST NOT use the " +
				"same key to refer to two distinct requests. Polls may repeat an outstanding request under its key; a key whose " +
				"request changes (compared in canonical JSON form) is this finding.",
			Spec: tasksSpec + "§ Task Update Requests"},
	}
}
