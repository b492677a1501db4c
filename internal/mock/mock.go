package mock

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Error codes of the mock's own answers.
const (
	// CodeUnknownMethod answers a request whose method the recording
	// never saw (JSON-RPC's method not found).
	CodeUnknownMethod = -32601
	// CodeNoMatch answers a request the recording has no answer for: no
	// recorded request with its target and params, an MRTR retry that
	// does not echo a requestState the mock handed out or lacks
	// inputResponses, a recorded request that was never answered.
	CodeNoMatch = -32602
	// CodeInvalid answers a message that is not a JSON-RPC request.
	CodeInvalid = -32600
)

// ErrorPrefix starts the message of every error the mock itself sends.
const ErrorPrefix = "mcptrail mock: "

// Sender takes the messages of one request's answer, in order. final is
// set on the last: the response itself (a transport may end the request's
// stream then). Send must not block for long: the mock calls it with its
// lock held.
type Sender interface {
	Send(msg []byte, final bool)
}

// Options are a Mock's knobs; nil means defaults.
type Options struct {
	// Match is how params are compared; "" is MatchStrict.
	Match Match
}

// Mock plays a Script to one live client session. It is safe for
// concurrent use.
type Mock struct {
	script *Script
	loose  bool
	nonce  string

	mu      sync.Mutex
	used    []bool       // by entry
	reached map[int]bool // MRTR rounds answered, by call index
	states  map[string]mrtrState
	waits   map[string]*legacyWait // by the raw id of the mock's own request
	minted  int64
}

// mrtrState is where an operation stands after the mock answered a round
// with input_required: the retry that must follow.
type mrtrState struct {
	entry int
	round int      // index into the script's rounds of the entry's operation
	needs []string // the inputRequests keys the retry must answer
}

// legacyWait is a client call held while the client answers the mock's
// server-initiated request (a legacy elicitation/create).
type legacyWait struct {
	entry  int
	child  int
	liveID string
	token  []byte // the live request's progressToken, or nil
	out    Sender
}

// answer is a recorded answer and what goes with it.
type answer struct {
	resp []byte
	// status is the HTTP error status resp came with (entry.status); 0
	// for none.
	status int
	asks   []string // the inputRequests keys of an input_required result
	notes  [][]byte // the notifications sent before it
}

// New returns a Mock that plays s.
func New(s *Script, opts *Options) *Mock {
	if opts == nil {
		opts = &Options{}
	}
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return &Mock{
		script: s, loose: opts.Match == MatchLoose, nonce: hex.EncodeToString(b[:]),
		used: make([]bool, len(s.entries)), reached: map[int]bool{},
		states: map[string]mrtrState{}, waits: map[string]*legacyWait{},
	}
}

func (m *Mock) mode() Match {
	if m.loose {
		return MatchLoose
	}
	return MatchStrict
}

// Serve takes one message from the client and sends what answers it to
// out: a request gets its recorded answer (or the mock's error); an answer
// to one of the mock's own requests continues the call it held, on that
// call's Sender; a notification gets nothing.
func (m *Mock) Serve(msg []byte, out Sender) {
	f := wire.Decode(msg)
	m.mu.Lock()
	defer m.mu.Unlock()
	switch f.Kind {
	case wire.KindRequest:
		m.request(&f, out)
	case wire.KindNotification:
	case wire.KindResponse, wire.KindError:
		m.answered(&f)
	case wire.KindBatch:
		out.Send(errorMsg("null", CodeInvalid, "batches are not supported"), true)
	default:
		out.Send(errorMsg("null", CodeInvalid, "not a JSON-RPC message: "+f.Problem), true)
	}
}

func (m *Mock) request(f *wire.Frame, out Sender) {
	id := f.ID.Raw()
	token := progressToken(f.Params)
	req := mcp.ParseRequest(f.Method, f.Params)
	if req.HasRequestState {
		if st, ok := m.states[req.RequestState]; ok {
			m.retry(req.RequestState, &st, &req, id, token, out)
			return
		}
	}
	if req.IsRetry() {
		out.Send(errorMsg(id, CodeNoMatch, fmt.Sprintf("%s retry with requestState %q: expected a requestState this mock handed out in an input_required result",
			describe(f.Method, req.Target), req.RequestState)), true)
		return
	}
	params, _ := matchParams(f.Params)
	i, why := m.find(f.Method, params)
	if i < 0 {
		var code int64 = CodeNoMatch
		if !slices.ContainsFunc(m.script.entries, func(e entry) bool { return e.method == f.Method }) {
			code = CodeUnknownMethod
		}
		out.Send(errorMsg(id, code, fmt.Sprintf("no recorded answer for %s: %s", describe(f.Method, req.Target), why)), true)
		return
	}
	m.used[i] = true
	e := &m.script.entries[i]
	if len(e.children) > 0 {
		m.sendChild(&legacyWait{entry: i, liveID: id, token: token, out: out})
		return
	}
	m.reply(i, -1, answer{resp: e.response, status: e.status, asks: e.asks, notes: e.notes}, id, token, out)
}

// retry answers an MRTR retry that echoed a requestState the mock minted;
// the state is spent once the retry is answered with the next round, and
// stays valid after a refused retry.
func (m *Mock) retry(state string, st *mrtrState, req *mcp.Request, id string, token []byte, out Sender) {
	e := &m.script.entries[st.entry]
	if !mcp.Covers(req.InputResponseKeys, inputRequests(st.needs)) {
		out.Send(errorMsg(id, CodeNoMatch, fmt.Sprintf("%s retry: expected inputResponses for %q, got %q",
			describe(e.method, e.target), st.needs, req.InputResponseKeys)), true)
		return
	}
	rounds := m.script.rounds[e.op]
	if st.round >= len(rounds) {
		out.Send(errorMsg(id, CodeNoMatch, fmt.Sprintf("%s: the recording has no round %d (the client retried where the recorded client did not)",
			describe(e.method, e.target), st.round+2)), true)
		return
	}
	r := &rounds[st.round]
	delete(m.states, state)
	m.reached[r.call] = true
	m.reply(st.entry, st.round+1, answer{resp: r.response, asks: r.asks, notes: r.notes}, id, token, out)
}

func inputRequests(keys []string) []mcp.InputRequest {
	out := make([]mcp.InputRequest, len(keys))
	for i, k := range keys {
		out[i] = mcp.InputRequest{Key: k}
	}
	return out
}

// reply sends a recorded response under the live id; an input_required
// result gets a fresh requestState, and the retry it asks for is noted.
// next is the index of the round that retry plays.
func (m *Mock) reply(entry, next int, a answer, id string, token []byte, out Sender) {
	e := &m.script.entries[entry]
	resp := a.resp
	if resp == nil {
		out.Send(errorMsg(id, CodeNoMatch, fmt.Sprintf("%s: the recorded call was never answered", describe(e.method, e.target))), true)
		return
	}
	if ss, ok := out.(StatusSender); ok && a.status != 0 {
		m.replyStatus(e, a, id, ss)
		return
	}
	b, err := setMember(resp, "id", []byte(id))
	if err == nil && m.inputRequired(resp) {
		if next < 0 {
			next = 0
		}
		m.minted++
		state := fmt.Sprintf("mcptrail-mock-%s-%d", m.nonce, m.minted)
		q, _ := jsontext.AppendQuote(nil, state)
		b, err = setPath(b, []string{"result"}, mcp.MemberRequestState, q)
		m.states[state] = mrtrState{entry: entry, round: next, needs: a.asks}
	}
	if err != nil {
		out.Send(errorMsg(id, CodeNoMatch, fmt.Sprintf("%s: the recorded answer cannot be replayed: %v", describe(e.method, e.target), err)), true)
		return
	}
	sendNotes(a.notes, token, out)
	out.Send(b, true)
}

// StatusSender is a Sender that can give an answer the HTTP status it was
// recorded with (the HTTP transport).
type StatusSender interface {
	Sender
	// SendStatus sends msg, the final answer, with the HTTP status.
	SendStatus(msg []byte, status int)
}

// replyStatus serves an answer recorded with an HTTP error status as
// recorded: that status, and the body itself when its id is null (the
// server refused the POST, such as a 2025 server's 400 to a
// server/discover probe); an error naming the request gets the live id.
func (m *Mock) replyStatus(e *entry, a answer, id string, out StatusSender) {
	b := a.resp
	if f := wire.Decode(a.resp); !f.ID.IsNull() {
		var err error
		if b, err = setMember(a.resp, "id", []byte(id)); err != nil {
			out.Send(errorMsg(id, CodeNoMatch, fmt.Sprintf("%s: the recorded answer cannot be replayed: %v", describe(e.method, e.target), err)), true)
			return
		}
	}
	out.SendStatus(b, a.status)
}

func (m *Mock) inputRequired(resp []byte) bool {
	f := wire.Decode(resp)
	r := mcp.ParseResult(f.Result)
	return f.Kind == wire.KindResponse && r.InputRequired()
}

// sendChild sends the w.child-th legacy server request of w's entry under
// an id the mock mints, and holds the call until the client answers it.
func (m *Mock) sendChild(w *legacyWait) {
	e := &m.script.entries[w.entry]
	m.minted++
	id := strconv.FormatInt(m.minted, 10)
	b, err := setMember(e.children[w.child], "id", []byte(id))
	if err != nil {
		w.out.Send(errorMsg(w.liveID, CodeNoMatch, fmt.Sprintf("%s: the recorded server request cannot be replayed: %v", describe(e.method, e.target), err)), true)
		return
	}
	m.waits[id] = w
	w.out.Send(b, false)
}

// answered continues the call held for the mock's request the client just
// answered; an answer to nothing the mock asked is dropped.
func (m *Mock) answered(f *wire.Frame) {
	w, ok := m.waits[f.ID.Raw()]
	if !ok {
		return
	}
	delete(m.waits, f.ID.Raw())
	e := &m.script.entries[w.entry]
	if w.child+1 < len(e.children) {
		w.child++
		m.sendChild(w)
		return
	}
	m.reply(w.entry, -1, answer{resp: e.response, status: e.status, asks: e.asks, notes: e.notes}, w.liveID, w.token, w.out)
}

// errorMsg is a JSON-RPC error response from the mock itself.
func errorMsg(id string, code int64, msg string) []byte {
	if id == "" {
		id = "null"
	}
	b, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      jsontext.Value `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: jsontext.Value(id), Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, ErrorPrefix + msg}})
	return b
}

// Unasked describes what the recording holds that the live client never
// asked for, one line per recorded request, in recorded order.
func (m *Mock) Unasked() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for i, e := range m.script.entries {
		if !m.used[i] {
			out = append(out, fmt.Sprintf("call %d: %s %s", e.call, describe(e.method, e.target), orEmpty(e.shown)))
			continue
		}
		for k, r := range m.script.rounds[e.op] {
			if !m.reached[r.call] && e.op >= 0 {
				out = append(out, fmt.Sprintf("call %d: round %d of %s", r.call, k+2, describe(e.method, e.target)))
			}
		}
	}
	return out
}
