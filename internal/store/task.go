package store

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Task correlation (modelcontextprotocol/ext-tasks,
// specification/draft/tasks.md): a client tools/call answered with a
// CreateTaskResult becomes an operation, or the operation its MRTR rounds
// began turns into one; every tasks/get, tasks/update and tasks/cancel
// naming its taskId is a further round; the statuses of the tasks/get
// results and notifications/tasks follow the task to a terminal status,
// where the operation ends. The elicitations of an input_required task are
// ledger rows, asked once per key however often a poll repeats them, and
// answered by the tasks/update carrying that key.

// TaskInfo is what an operation knows of the task it became. The zero
// value (ID "") is an operation that is no task.
type TaskInfo struct {
	// ID is the server's taskId.
	ID string
	// Status is the latest status seen, verbatim (mcp.Task*).
	Status string
	// Polls, Updates and Cancels count the task's tasks/get, tasks/update
	// and tasks/cancel requests; Notifications its notifications/tasks.
	Polls, Updates, Cancels, Notifications int
	// PollIntervalMS is the latest pollIntervalMs seen (0: none).
	PollIntervalMS int64
	// TerminalAt and TerminalSeq are when the first terminal status was
	// seen; zero while the task is not known to have ended.
	TerminalAt  time.Time
	TerminalSeq uint64
	// IsError reports a completed task whose result has isError: true.
	IsError bool
}

// Terminal reports whether the task was seen in a terminal status.
func (t *TaskInfo) Terminal() bool { return t.TerminalSeq != 0 }

// taskState is what task correlation keeps between frames.
type taskState struct {
	// byID maps a taskId to its operation; live holds each task
	// operation's pairing details.
	byID map[string]int
	live map[int]*taskLive
	// declared holds, per pending modern client tools/call, whether its
	// request declared the extension.
	declared map[int]bool
}

// taskLive is what pairing keeps per task.
type taskLive struct {
	// lastPoll is the latest tasks/get request (or the CreateTaskResult);
	// interval the latest pollIntervalMs, hasInterval whether one was seen;
	// fast is set once task-poll-too-fast was raised for the task.
	lastPoll    time.Time
	interval    int64
	hasInterval bool
	fast        bool
	// waitSince is when input_required was first seen since the last
	// tasks/update; zero when not waiting.
	waitSince time.Time
	// rows maps each inputRequests key with a ledger row to that row.
	rows map[string]int
	// outstanding holds the inputRequests keys of the latest task state
	// seen when it was input_required; nil after any other status.
	outstanding map[string]bool
	// sums maps each inputRequests key seen over the task's life to the
	// sum of the request it last named (mcp.InputRequestSums).
	sums map[string]uint64
}

// taskDeclared records whether a modern client tools/call declared the
// extension, for the answer to check.
func (s *Store) taskDeclared(c *Call, req *mcp.Request) {
	if c.Method != mcp.MethodToolsCall || !req.Modern {
		return
	}
	if s.task.declared == nil {
		s.task.declared = make(map[int]bool)
	}
	s.task.declared[c.Index] = mcp.DeclaresTasks(req.ClientCapabilities)
}

// taskRequest makes a client tasks/* request a round of its task's
// operation and checks it against what the task said before.
func (s *Store) taskRequest(c *Call, r *capture.Record, params jsontext.Value) {
	if c.Dir != capture.C2S || !mcp.TaskMethod(c.Method) || c.Era != EraModern {
		return // 2025-11-25's core tasks/get and tasks/cancel are another protocol
	}
	id, ok := mcp.TaskID(params)
	if !ok {
		s.raise(finding.New(finding.TaskInvalid, r.Seq, "%s id %s has no string params.taskId", c.Method, c.ID.Raw()).OfCall(c.Index))
		return
	}
	opIdx, known := s.task.byID[id]
	if !known {
		s.raise(finding.New(finding.TaskUnknown, r.Seq,
			"%s id %s names task %q, which no CreateTaskResult in the capture created", c.Method, c.ID.Raw(), id).OfCall(c.Index))
		return
	}
	op, live := &s.ops[opIdx], s.task.live[opIdx]
	switch c.Method {
	case mcp.MethodTasksGet:
		op.Task.Polls++
		s.checkPoll(c, r, op, live)
	case mcp.MethodTasksUpdate:
		op.Task.Updates++
		if op.Task.Terminal() {
			s.raise(finding.New(finding.TaskUpdateAfterTerminal, r.Seq,
				"tasks/update id %s for task %q, which was already %s at seq %d", c.ID.Raw(), id, op.Task.Status, op.Task.TerminalSeq).OfCall(c.Index))
		}
		if !live.waitSince.IsZero() {
			op.WaitMS += ms(r.Time.Sub(live.waitSince))
			live.waitSince = time.Time{}
		}
		if !op.Task.Terminal() {
			s.checkInputResponses(c, r, id, live, params)
		}
		s.taskAnswerRows(live, r, params)
	case mcp.MethodTasksCancel:
		op.Task.Cancels++
	}
	if op.Rounds == nil {
		return // a forgetting store dropped the rounds of the ended task
	}
	c.Operation, c.Round = opIdx, len(op.Rounds)+1
	op.Rounds = append(slices.Clip(op.Rounds), Round{Call: c.Index, ID: c.ID, Pairing: PairTask})
	s.emitCall(ChangeOperationRound, c)
}

// checkPoll raises task-poll-too-fast, once per task, for a tasks/get
// sent sooner after the previous one (or the CreateTaskResult) than the
// pollIntervalMs last seen.
func (s *Store) checkPoll(c *Call, r *capture.Record, op *Operation, live *taskLive) {
	gap := ms(r.Time.Sub(live.lastPoll))
	live.lastPoll = r.Time
	if live.fast || !live.hasInterval || op.Task.Terminal() || gap >= float64(live.interval) {
		return
	}
	live.fast = true
	s.raise(finding.New(finding.TaskPollTooFast, r.Seq,
		"tasks/get id %s polls task %q %.0f ms after the last poll; its pollIntervalMs is %d",
		c.ID.Raw(), op.Task.ID, gap, live.interval).OfCall(c.Index))
}

// checkInputResponses raises task-input-not-outstanding for a tasks/update
// whose inputResponses carry keys that are not among the inputRequests of
// the latest task state seen (§ Task Update Requests: each key MUST
// correspond to a currently-outstanding inputRequest key).
func (s *Store) checkInputResponses(c *Call, r *capture.Record, id string, live *taskLive, params jsontext.Value) {
	var stray []string
	for _, a := range mcp.InputActions(params) {
		if !live.outstanding[a.Key] {
			stray = append(stray, strconv.Quote(a.Key))
		}
	}
	if len(stray) == 0 {
		return
	}
	outstanding := make([]string, 0, len(live.outstanding))
	for k := range live.outstanding {
		outstanding = append(outstanding, strconv.Quote(k))
	}
	slices.Sort(outstanding)
	s.raise(finding.New(finding.TaskInputNotOutstanding, r.Seq,
		"tasks/update id %s for task %q answers %s, not among the outstanding inputRequests [%s] of the latest state seen",
		c.ID.Raw(), id, strings.Join(stray, ", "), strings.Join(outstanding, ", ")).OfCall(c.Index))
}

// checkInputKeys raises task-input-key-reused for each inputRequests key
// of an input_required state that names a request other than the one it
// named in an earlier state of the task (§ Task Update Requests: a key
// MUST NOT refer to two distinct requests over a task's lifetime), and
// records the state's keys as the outstanding ones.
func (s *Store) checkInputKeys(op, call int, live *taskLive, r *capture.Record, v jsontext.Value) {
	sums := mcp.InputRequestSums(v)
	live.outstanding = make(map[string]bool, len(sums))
	if live.sums == nil {
		live.sums = make(map[string]uint64, len(sums))
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		live.outstanding[k] = true
		before, seen := live.sums[k]
		live.sums[k] = sums[k]
		if !seen || before == sums[k] {
			continue
		}
		f := finding.New(finding.TaskInputKeyReused, r.Seq,
			"task %q: inputRequests key %q names a request other than the one it named before", s.ops[op].Task.ID, k)
		if call >= 0 {
			f = f.OfCall(call)
		}
		s.raise(f)
	}
}

// taskAnswerRows answers the ledger rows of the keys a tasks/update's
// inputResponses carries.
func (s *Store) taskAnswerRows(live *taskLive, r *capture.Record, params jsontext.Value) {
	at := s.refOf(r)
	for _, a := range mcp.InputActions(params) {
		i, ok := live.rows[a.Key]
		if !ok || s.ledger.rows[i].Status != LedgerPending {
			continue
		}
		s.answeredRow(i, a.Action, &at)
		s.noteAnswer(i)
	}
}

// taskAnswered reads the answer of a client call: a CreateTaskResult
// starts a task, a tasks/get result moves it, and a tasks/* error is
// checked against the extension's codes.
func (s *Store) taskAnswered(c *Call, r *capture.Record, f *wire.Frame, res *mcp.Result) {
	if c.Dir != capture.C2S {
		return
	}
	declared, tracked := s.task.declared[c.Index]
	delete(s.task.declared, c.Index)
	switch {
	case f.Kind == wire.KindError:
		if c.Era == EraModern {
			s.taskError(c, r, f, declared && tracked)
		}
	case res.ResultType == mcp.ResultTask:
		s.taskCreated(c, r, f.Result, declared, tracked)
	case c.Method == mcp.MethodTasksGet && c.Operation >= 0 && s.ops[c.Operation].Task.ID != "":
		s.taskObserved(c.Operation, c.Index, r, f.Result)
	}
}

// taskError checks a tasks/* error (or a -32021 to a tools/call) against
// the codes of § Error Handling.
func (s *Store) taskError(c *Call, r *capture.Record, f *wire.Frame, declared bool) {
	switch {
	case f.ErrorCode == mcp.CodeMissingClientCapability && declared:
		s.raise(finding.New(finding.TaskErrorCode, r.Seq,
			"%s id %s declared %s, yet was answered -32021 (missing required client capability)", c.Method, c.ID.Raw(), mcp.ExtensionTasks).OfCall(c.Index))
	case !mcp.TaskMethod(c.Method):
	case f.ErrorCode == -32602 || f.ErrorCode == -32603 || f.ErrorCode == mcp.CodeMissingClientCapability:
	default:
		s.raise(finding.New(finding.TaskErrorCode, r.Seq,
			"%s id %s is answered with error %d; the extension answers tasks/* with -32602, -32603 or -32021",
			c.Method, c.ID.Raw(), f.ErrorCode).OfCall(c.Index))
	}
}

// taskCreated starts the task a CreateTaskResult announces.
func (s *Store) taskCreated(c *Call, r *capture.Record, result jsontext.Value, declared, tracked bool) {
	if c.Method != mcp.MethodToolsCall {
		s.raise(finding.New(finding.TaskUnsupportedMethod, r.Seq,
			"%s id %s is answered with a CreateTaskResult; only tools/call supports tasks", c.Method, c.ID.Raw()).OfCall(c.Index))
		return
	}
	if tracked && !declared {
		s.raise(finding.New(finding.TaskUndeclared, r.Seq,
			"tools/call %q id %s is answered with a CreateTaskResult, but its request did not declare %s",
			c.Target, c.ID.Raw(), mcp.ExtensionTasks).OfCall(c.Index))
	}
	t := mcp.ParseTask(result)
	if !t.HasID {
		s.raise(finding.New(finding.TaskInvalid, r.Seq, "the CreateTaskResult of tools/call id %s has no string taskId", c.ID.Raw()).OfCall(c.Index))
		return
	}
	if c.Operation < 0 {
		c.Operation, c.Round = len(s.ops), 1
		s.ops = append(s.ops, Operation{
			Index: c.Operation, Method: c.Method, Target: c.Target, Root: c.Index, RootID: c.ID,
			Rounds: []Round{{Call: c.Index, ID: c.ID, Pairing: PairRoot}},
		})
		s.emitCall(ChangeOperationRound, c)
	}
	if s.task.byID == nil {
		s.task.byID, s.task.live = make(map[string]int), make(map[int]*taskLive)
	}
	s.task.byID[t.ID] = c.Operation
	s.task.live[c.Operation] = &taskLive{lastPoll: r.Time}
	s.ops[c.Operation].Task = TaskInfo{ID: t.ID}
	s.taskObserved(c.Operation, c.Index, r, result)
}

// taskNotification follows a notifications/tasks to its task.
func (s *Store) taskNotification(r *capture.Record, f *wire.Frame) {
	if f.Method != mcp.MethodTaskStatus || dirOf(r) != capture.S2C {
		return
	}
	t := mcp.ParseTask(f.Params)
	op, ok := s.task.byID[t.ID]
	if !ok {
		s.raise(finding.New(finding.TaskUnknown, r.Seq,
			"notifications/tasks names task %q, which no CreateTaskResult in the capture created", t.ID))
		return
	}
	info := &s.ops[op].Task
	info.Notifications++
	was := info.Terminal()
	s.taskObserved(op, -1, r, f.Params)
	s.calls.roll.markOp(op)
	if rounds := s.ops[op].Rounds; !was && info.Terminal() && len(rounds) > 0 && s.opts.OnChange != nil {
		// The notification ends the task: its operation completes with
		// the last round so far.
		s.emit(ChangeOperationCompleted, rounds[len(rounds)-1].Call, op, -1)
	}
}

// taskObserved applies a task state (a CreateTaskResult, a tasks/get
// result, notifications/tasks params) carried by record r, answering call
// (-1 for a notification), to operation op.
func (s *Store) taskObserved(op int, call int, r *capture.Record, v jsontext.Value) {
	t := mcp.ParseTask(v)
	info, live := &s.ops[op].Task, s.task.live[op]
	if bad := taskShape(&t, info); bad != "" {
		f := finding.New(finding.TaskInvalid, r.Seq, "task %q: %s", info.ID, bad)
		if call >= 0 {
			f = f.OfCall(call)
		}
		s.raise(f)
	}
	if t.HasPollInterval {
		info.PollIntervalMS, live.interval, live.hasInterval = t.PollIntervalMS, t.PollIntervalMS, true
	}
	if info.Terminal() || !mcp.TaskStatusKnown(t.Status) {
		return
	}
	info.Status, info.IsError = t.Status, t.IsError
	if t.Status != mcp.TaskInputRequired {
		live.outstanding = nil
	}
	switch {
	case mcp.TaskTerminal(t.Status):
		info.TerminalAt, info.TerminalSeq = r.Time, r.Seq
		if !live.waitSince.IsZero() {
			s.ops[op].WaitMS += ms(r.Time.Sub(live.waitSince))
			live.waitSince = time.Time{}
		}
	case t.Status == mcp.TaskInputRequired:
		if live.waitSince.IsZero() {
			live.waitSince = r.Time
		}
		s.checkInputKeys(op, call, live, r, v)
		s.taskAsked(op, call, live, r, v)
	}
}

// taskShape describes what is wrong with task state t, given what the
// task was (info); "" when nothing is.
func taskShape(t *mcp.Task, info *TaskInfo) string {
	switch {
	case t.HasID && t.ID != info.ID:
		return "a tasks/get result or notification carries taskId " + quote(t.ID)
	case !mcp.TaskStatusKnown(t.Status):
		return "status " + quote(t.Status) + " is not one the extension defines"
	case info.Terminal() && t.Status != info.Status:
		return "status " + t.Status + " after the terminal " + info.Status
	case t.Status == mcp.TaskInputRequired && t.InputRequests == nil:
		return "input_required without inputRequests"
	case t.Status == mcp.TaskCompleted && !t.HasResult:
		return "completed without a result"
	case t.Status == mcp.TaskFailed && !t.HasError:
		return "failed without an error"
	}
	return ""
}

func quote(s string) string { return strconv.Quote(s) }

// taskAsked opens a ledger row per elicitation/create of an input_required
// task state whose key has none yet (polls repeat outstanding requests),
// attributed to the task's root call.
func (s *Store) taskAsked(op int, call int, live *taskLive, r *capture.Record, v jsontext.Value) {
	root := s.calls.at(s.ops[op].Root)
	round := 0
	if call >= 0 {
		round = s.calls.at(call).Round
	}
	at := s.refOf(r)
	for _, q := range mcp.InputElicitations(v) {
		if _, seen := live.rows[q.Key]; seen {
			continue
		}
		row := newRow(LedgerMRTR, &q.Request, &at, s.ledger.declaredBy(root.Index))
		row.Key, row.Round, row.Call = q.Key, round, call
		if call >= 0 {
			row.RequestID = s.calls.at(call).ID
		}
		if live.rows == nil {
			live.rows = make(map[string]int)
		}
		live.rows[q.Key] = len(s.ledger.rows)
		s.addRow(row, root, false)
	}
}

// taskCancelNotification raises task-cancel-notification when a client's
// notifications/cancelled names call idx and that call is the tools/call
// that created a task (or an earlier MRTR round of it): § Task
// Cancellation says notifications/cancelled MUST NOT be used for task
// cancellation; tasks/cancel is. It reports whether it raised, so that
// the cancel is not also read as one of a call no longer in flight.
func (s *Store) taskCancelNotification(r *capture.Record, idx int) bool {
	c := s.calls.at(idx)
	if c.Dir != capture.C2S || c.Method != mcp.MethodToolsCall || c.Operation < 0 || c.Operation >= len(s.ops) {
		return false
	}
	task := &s.ops[c.Operation].Task
	if task.ID == "" {
		return false
	}
	s.raise(finding.New(finding.TaskCancelNotification, r.Seq,
		"notifications/cancelled names tools/call %q id %s, which created task %q; a task is cancelled with tasks/cancel",
		c.Target, c.ID.Raw(), task.ID).OfCall(idx))
	return true
}

// taskStatus is the operation status of a task: its final call status
// once terminal, pending while it runs.
func taskStatus(t *TaskInfo) string {
	switch {
	case !t.Terminal():
		return StatusPending
	case t.Status == mcp.TaskFailed:
		return StatusError
	case t.Status == mcp.TaskCancelled:
		return StatusCancelled
	case t.IsError:
		return StatusToolError
	}
	return StatusOK
}

// tasksUnfinished returns a task-never-terminal finding per task never
// seen in a terminal status, for a session that ended.
func (s *Store) tasksUnfinished() []finding.Finding {
	if !s.sess.Ended {
		return nil
	}
	var out []finding.Finding
	for i := range s.ops {
		op := &s.ops[i]
		if op.Task.ID == "" || op.Task.Terminal() {
			continue
		}
		f := finding.New(finding.TaskNeverTerminal, s.lastSeq,
			"task %q of %s %q (id %s) was last seen %s and never completed, failed or was cancelled",
			op.Task.ID, op.Method, op.Target, op.RootID.Raw(), op.Task.Status).OfCall(op.Root)
		if g, ok := s.graded(f); ok {
			out = append(out, g)
		}
	}
	return out
}
