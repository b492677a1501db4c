package store

import (
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// ledgerState is what the ledger keeps between frames. It reads both halves
// of what the correlator pairs: the question when a call is answered with
// it (or a legacy server request opens), the answer when the retry is
// paired with that interim result (or the legacy request is answered). It
// never changes the pairing.
type ledgerState struct {
	rows []LedgerRow
	// waiting maps the call that carried questions (an interim result's
	// call, a legacy server request) to its unanswered rows.
	waiting map[int][]int
	// byElicitationID finds the latest url-mode row with a legacy
	// elicitationId, for notifications/elicitation/complete.
	byElicitationID map[string]int
	// declared holds, per client call index, the elicitation modes its
	// request declared (spec 2.4 rule 5: that request's capabilities).
	declared []modes
	// declaredOf replaces declared in a forgetting store (Options.Forget),
	// which drops the entry of a call it forgets.
	declaredOf map[int]modes
	// touched lists the rows changed since the last snapshot (marked
	// holds their bits); byOp lists each operation's rows, whose times
	// follow the operation's. unsorted is set once a row was asked before
	// the row added ahead of it.
	touched  []int
	marked   []uint64
	byOp     map[int][]int
	unsorted bool
	// answers holds the rows the frame being correlated answered, for
	// Frame.Answers; kept only when frames are handed out.
	answers []LedgerRow
}

// refOf is where record r sits in the capture.
func (s *Store) refOf(r *capture.Record) frameRef {
	return frameRef{time: r.Time, seq: r.Seq, line: r.Line, conn: s.names.intern(r.Conn)}
}

// answeredRow records on row i the answer action carried by the record at,
// and hands it out with the frame.
func (s *Store) answeredRow(i int, action string, at *frameRef) *LedgerRow {
	row := &s.ledger.rows[i]
	row.answered(action, at)
	s.ledger.touch(i)
	return row
}

// noteAnswer emits the change of row i, answered, and keeps a copy of the
// row for the frame's Answers when frames are handed out.
func (s *Store) noteAnswer(i int) {
	if s.opts.OnFrame != nil || len(s.opts.Checks) > 0 {
		s.ledger.answers = append(s.ledger.answers, s.ledger.rows[i])
	}
	s.emitRow(ChangeRowAnswered, i)
}

// frameAnswers returns the rows the frame being correlated answered, nil
// for none.
func (l *ledgerState) frameAnswers() []LedgerRow {
	if len(l.answers) == 0 {
		return nil
	}
	return l.answers
}

// dropAnswers forgets them once the frame is handed out.
func (l *ledgerState) dropAnswers() {
	clear(l.answers)
	l.answers = l.answers[:0]
}

// touch notes that row i changed.
func (l *ledgerState) touch(i int) {
	if w := i/64 + 1; len(l.marked) < w {
		l.marked = append(l.marked, make([]uint64, w-len(l.marked))...)
	}
	if l.marked[i/64]&(1<<(i%64)) == 0 {
		l.marked[i/64] |= 1 << (i % 64)
		l.touched = append(l.touched, i)
	}
}

// ledgerRequest runs after a request is correlated: a legacy server
// elicitation/create opens a row; a client request records what it
// declared and, when it is a paired MRTR retry, answers the rows of the
// interim result it retries.
func (s *Store) ledgerRequest(c *Call, r *capture.Record, params jsontext.Value, req *mcp.Request) {
	if c.Dir == capture.S2C {
		if c.Method == mcp.MethodElicit {
			s.ledgerServerAsked(c, r, params)
		}
		return
	}
	s.ledger.setDeclared(c.Index, s.declaredModes(req))
	if c.Operation >= 0 && c.Round > 1 {
		s.ledgerRetried(c, r, params)
	}
}

// setDeclared records what client call i declared.
func (l *ledgerState) setDeclared(i int, m modes) {
	if l.declaredOf != nil {
		l.declaredOf[i] = m
		return
	}
	for len(l.declared) <= i {
		l.declared = append(l.declared, 0)
	}
	l.declared[i] = m
}

// declaredBy returns what client call i declared (0: unknown).
func (l *ledgerState) declaredBy(i int) modes {
	if l.declaredOf != nil {
		return l.declaredOf[i]
	}
	if i < len(l.declared) {
		return l.declared[i]
	}
	return 0
}

// declaredModes is what a client request declared: a modern request's own
// _meta capabilities (none when absent), else the session's (initialize),
// unknown when the capture holds no declaration.
func (s *Store) declaredModes(req *mcp.Request) modes {
	cl := &s.sess.Client
	switch {
	case req.Modern && req.ClientCapabilities == nil:
		return modesKnown
	case req.ClientCapabilities != nil:
		// clientDeclared has just read this request's capabilities.
		return modesOf(cl.ElicitForm, cl.ElicitURL)
	case cl.Capabilities != nil:
		return modesOf(cl.ElicitForm, cl.ElicitURL)
	}
	return 0
}

// ledgerAnswer runs after a call is answered: an interim result's
// elicitations and a -32042 error's data.elicitations open rows; the
// answer to a legacy elicitation/create closes its row.
func (s *Store) ledgerAnswer(c *Call, r *capture.Record, f *wire.Frame, res *mcp.Result) {
	switch {
	case c.Dir == capture.S2C:
		if c.Method == mcp.MethodElicit {
			s.ledgerServerAnswered(c, r, f)
		}
	case f.Kind == wire.KindError:
		if f.ErrorCode == mcp.CodeURLElicitationRequired {
			s.ledgerRequired(c, r, f.ErrorData)
		}
	case res.InputRequired():
		if slices.ContainsFunc(res.InputRequests, func(ir mcp.InputRequest) bool { return ir.Method == mcp.MethodElicit }) {
			s.ledgerAsked(c, r, f.Result)
		}
	}
}

// ledgerNotification handles notifications/elicitation/complete: the
// first one naming a url-mode row's elicitationId sets its CompletedAt.
func (s *Store) ledgerNotification(r *capture.Record, f *wire.Frame) {
	if f.Method != mcp.MethodElicitComplete {
		return
	}
	if i, ok := s.ledger.byElicitationID[mcp.ElicitationID(f.Params)]; ok && s.ledger.rows[i].CompletedAt.IsZero() {
		s.ledger.rows[i].CompletedAt = r.Time
		s.ledger.touch(i)
	}
}

// ledgerAsked opens a row per elicitation/create of an interim result
// (sampling and roots siblings get none), attributed to the operation's
// root, or to the call itself when it belongs to no operation.
func (s *Store) ledgerAsked(c *Call, r *capture.Record, result jsontext.Value) {
	declared := s.ledger.declaredBy(c.Index)
	root, round := c, 1
	if c.Operation >= 0 {
		root, round = s.calls.at(s.ops[c.Operation].Root), c.Round
	}
	at := s.refOf(r)
	for _, q := range mcp.InputElicitations(result) {
		row := newRow(LedgerMRTR, &q.Request, &at, declared)
		row.Key, row.Round, row.RequestID, row.Call = q.Key, round, c.ID, c.Index
		s.addRow(row, root, true)
	}
}

// ledgerRetried answers, per identical key, the rows of the interim result
// a paired retry answers (the previous round of its operation). A row
// whose key the retry does not carry stays pending.
func (s *Store) ledgerRetried(c *Call, r *capture.Record, params jsontext.Value) {
	prev := s.ops[c.Operation].Rounds[c.Round-2].Call
	rows, ok := s.ledger.waiting[prev]
	if !ok {
		return
	}
	delete(s.ledger.waiting, prev)
	actions := mcp.InputActions(params)
	at := s.refOf(r)
	for _, i := range rows {
		key := s.ledger.rows[i].Key
		if j := slices.IndexFunc(actions, func(a mcp.KeyedAction) bool { return a.Key == key }); j >= 0 {
			s.answeredRow(i, actions[j].Action, &at)
			s.noteAnswer(i)
		}
	}
}

// ledgerServerAsked opens the row of a legacy server-initiated
// elicitation/create, attributed to the client call it interrupted.
func (s *Store) ledgerServerAsked(c *Call, r *capture.Record, params jsontext.Value) {
	declared := modes(0)
	if cl := &s.sess.Client; cl.Capabilities != nil {
		declared = modesOf(cl.ElicitForm, cl.ElicitURL)
	}
	q := mcp.ParseElicitRequest(params)
	at := s.refOf(r)
	row := newRow(LedgerLegacy, &q, &at, declared)
	row.RequestID, row.Call = c.ID, c.Index
	var root *Call
	if c.Parent >= 0 {
		root = s.calls.at(c.Parent)
	}
	s.addRow(row, root, true)
}

// ledgerServerAnswered closes a legacy row with the client's response.
func (s *Store) ledgerServerAnswered(c *Call, r *capture.Record, f *wire.Frame) {
	rows, ok := s.ledger.waiting[c.Index]
	if !ok {
		return
	}
	delete(s.ledger.waiting, c.Index)
	at := s.refOf(r)
	for _, i := range rows {
		if f.Kind == wire.KindError {
			s.answeredRow(i, "", &at).Status = LedgerError
		} else {
			s.answeredRow(i, mcp.ElicitAction(f.Result), &at)
		}
		s.noteAnswer(i)
	}
}

// ledgerRequired opens a row with status required per entry of a -32042
// error's data.elicitations, attributed to the call it answered.
func (s *Store) ledgerRequired(c *Call, r *capture.Record, data jsontext.Value) {
	declared := s.ledger.declaredBy(c.Index)
	root := c
	if c.Operation >= 0 {
		root = s.calls.at(s.ops[c.Operation].Root)
	}
	at := s.refOf(r)
	for n, q := range mcp.RequiredElicitations(data) {
		row := newRow(LedgerLegacy, &q, &at, declared)
		row.RequestID, row.Call, row.Status, row.Entry = c.ID, c.Index, LedgerRequired, n
		s.addRow(row, root, false)
	}
}

// addRow appends a row attributed to root (nil: unattributed); with wait
// set the row waits for an answer to its call.
func (s *Store) addRow(row LedgerRow, root *Call, wait bool) {
	l := &s.ledger
	row.Root = LedgerRoot{Call: -1}
	if root != nil {
		row.Root = LedgerRoot{Call: root.Index, ID: root.ID, Method: root.Method, Target: root.Target}
		row.Operation = root.Operation
	}
	i := len(l.rows)
	if wait {
		if l.waiting == nil {
			l.waiting = make(map[int][]int)
		}
		l.waiting[row.Call] = append(l.waiting[row.Call], i)
	}
	if row.ElicitationID != "" {
		if l.byElicitationID == nil {
			l.byElicitationID = make(map[string]int)
		}
		l.byElicitationID[row.ElicitationID] = i
	}
	if row.Operation >= 0 {
		if l.byOp == nil {
			l.byOp = make(map[int][]int)
		}
		l.byOp[row.Operation] = append(l.byOp[row.Operation], i)
	}
	if i > 0 && row.AskedSeq < l.rows[i-1].AskedSeq {
		l.unsorted = true
	}
	l.rows = append(l.rows, row)
	s.emitRow(ChangeRowAsked, i)
}

// shareLedger brings the rows' mirror up to date with the rows changed or
// added since the last snapshot, and those of the operations that changed
// (dirty), and shares it. Rows added out of order are sorted afresh each
// time instead.
func (s *Store) shareLedger(dirty []int) Ledger {
	l, m := &s.ledger, &s.rowsMirror
	if l.unsorted {
		return ListOf(s.ledgerRows(s.ops, true))
	}
	for _, op := range dirty {
		for _, i := range l.byOp[op] {
			l.touch(i)
		}
	}
	for _, i := range l.touched {
		l.marked[i/64] &^= 1 << (i % 64)
		if i < m.list.n {
			m.set(i, s.timedRow(i))
		}
	}
	l.touched = l.touched[:0]
	for i := m.list.n; i < len(l.rows); i++ {
		m.set(i, s.timedRow(i))
	}
	return m.share()
}

// timedRow returns row i with its operation's wait and tool times.
func (s *Store) timedRow(i int) LedgerRow {
	row := s.ledger.rows[i]
	if op := row.Operation; op >= 0 && op < len(s.ops) {
		row.WaitMS, row.ToolMS = s.ops[op].WaitMS, s.ops[op].ToolMS
	}
	return row
}

// ledgerRows returns the snapshot's rows, ordered by the time each question
// was asked, with each operation's wait and tool times (final once ops are
// finished). With copyState false the store's rows are handed over.
func (s *Store) ledgerRows(ops []Operation, copyState bool) []LedgerRow {
	if len(s.ledger.rows) == 0 {
		return nil
	}
	rows := s.ledger.rows
	if copyState {
		rows = slices.Clone(rows)
	}
	for i := range rows {
		if op := rows[i].Operation; op >= 0 && op < len(ops) {
			rows[i].WaitMS, rows[i].ToolMS = ops[op].WaitMS, ops[op].ToolMS
		}
	}
	slices.SortStableFunc(rows, func(a, b LedgerRow) int {
		switch {
		case a.AskedSeq < b.AskedSeq:
			return -1
		case a.AskedSeq > b.AskedSeq:
			return 1
		}
		return 0
	})
	return rows
}
