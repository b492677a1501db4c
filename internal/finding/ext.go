package finding

// Rule ids raised for the Skills extension (modelcontextprotocol/ext-skills,
// specification/stable/skills.mdx): a skill's entry, and every
// resources/read of a file it lists, checked against that entry.
const (
	SkillDigestMismatch = "skill-digest-mismatch"
	SkillSizeMismatch   = "skill-size-mismatch"
	SkillUnlistedFile   = "skill-unlisted-file"
	SkillEntryInvalid   = "skill-entry-invalid"
	// SkillDirectoryUndeclared: the client called resources/directory/read
	// on a server that did not declare directoryRead: true.
	SkillDirectoryUndeclared = "skill-directory-read-undeclared"
	// SkillNoResourcesCap: a server declared the extension without the
	// resources capability.
	SkillNoResourcesCap = "skill-resources-capability-missing"
)

// Rule ids raised for MCP Apps (modelcontextprotocol/ext-apps,
// specification/draft/apps.mdx): a tool's UI resource.
const (
	AppResourceNotRead = "app-resource-not-read"
	AppResourceInvalid = "app-resource-invalid"
)

// Rule ids raised for the Tasks extension (modelcontextprotocol/ext-tasks,
// specification/draft/tasks.md): a task's creation, its polls, updates
// and cancellation, its statuses, and the end of the capture.
const (
	// TaskNameHeader: a tasks/* request over Streamable HTTP whose
	// Mcp-Name is missing or differs from params.taskId.
	TaskNameHeader = "task-name-header"
	// TaskPollTooFast: a tasks/get sent sooner after the previous one (or
	// the CreateTaskResult) than the pollIntervalMs last seen.
	TaskPollTooFast = "task-poll-too-fast"
	// TaskNeverTerminal: the capture ended with a task never seen in a
	// terminal status.
	TaskNeverTerminal = "task-never-terminal"
	// TaskUpdateAfterTerminal: a tasks/update for a task already seen in a
	// terminal status.
	TaskUpdateAfterTerminal = "task-update-after-terminal"
	// TaskErrorCode: a tasks/* request answered with an error code the
	// extension does not define for it, or -32021 to a client that
	// declared the extension.
	TaskErrorCode = "task-error-code"
	// TaskUndeclared: a CreateTaskResult answered a request that did not
	// declare the extension.
	TaskUndeclared = "task-undeclared"
	// TaskUnsupportedMethod: a CreateTaskResult answered a method other
	// than tools/call.
	TaskUnsupportedMethod = "task-unsupported-method"
	// TaskUnknown: a tasks/* request or notifications/tasks names a taskId
	// no CreateTaskResult in the capture created.
	TaskUnknown = "task-unknown"
	// TaskInvalid: a task object breaks its shape (no taskId, an unknown
	// status, a status without its payload, a terminal task that changes).
	TaskInvalid = "task-invalid"
	// TaskCancelNotification: a notifications/cancelled names the
	// tools/call that created a task; tasks/cancel is the only way to
	// cancel one.
	TaskCancelNotification = "task-cancel-notification"
	// TaskInputNotOutstanding: a tasks/update carries inputResponses keys
	// that are not among the inputRequests of the latest task state seen.
	TaskInputNotOutstanding = "task-input-not-outstanding"
	// TaskInputKeyReused: an inputRequests key of a task names a request
	// other than the one it named before over the task's life.
	TaskInputKeyReused = "task-input-key-reused"
)

// Rule ids raised for the deprecated features of 2026-07-28 in use in a
// 2026-07-28 request (modelcontextprotocol/modelcontextprotocol,
// docs/specification/2026-07-28/deprecated.mdx); never in a 2025 session,
// where the features are current.
const (
	DeprecatedSampling       = "deprecated-sampling"
	DeprecatedRoots          = "deprecated-roots"
	DeprecatedLogging        = "deprecated-logging"
	DeprecatedIncludeContext = "deprecated-include-context"
	DeprecatedTitledEnum     = "deprecated-titled-enum"
	DeprecatedDCR            = "deprecated-dynamic-registration"
	DeprecatedHTTPSSE        = "deprecated-http-sse"
)

// ServerCardMismatch: a server card (SEP-2127, draft;
// modelcontextprotocol/experimental-ext-server-card docs/discovery.md)
// fetched in the session contradicts what the server said on the wire.
const ServerCardMismatch = "server-card-mismatch"
