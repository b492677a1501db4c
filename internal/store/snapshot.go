package store

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Snapshot is an immutable view of a session's correlated state. Views read
// snapshots and never re-parse frames or correlate on their own.
type Snapshot struct {
	Session Session
	// Calls holds the calls in index order (callset.go).
	Calls Calls
	// Operations holds the MRTR operations in index order (list.go).
	Operations Operations
	// Findings holds the findings ordered by seq (findings.go).
	Findings Findings
	Summary  Summary
	Counts   Counts

	// Ledger is the elicitation ledger (ledger.go), ordered by the time
	// each question was asked; empty when the session asked none.
	Ledger Ledger

	// Catalog is what the server listed (catalog.go); nil when the client
	// got no list result. It is shared, never modified.
	Catalog *Catalog

	// Exchanges holds the HTTP exchanges that carried no MCP message and
	// the CONNECT tunnels, in capture order (exchanges.go); empty but for
	// captures of the forward proxy and documents the reverse proxy saw.
	Exchanges Exchanges

	// frames finds frames by seq for Frame (framesource.go).
	frames frameView
	// lines maps frame seqs to capture lines for Line (lines.go).
	lines lineIndex
}

// Line returns the capture line of frame seq, 0 when the snapshot does
// not know it (no such frame, a frame read without a line, or a store
// that forgets). Every finding of Findings already carries its line; Line
// locates the findings a view derives from the snapshot itself.
func (s *Snapshot) Line(seq uint64) int { return s.lines.line(seq) }

// Session describes the captured session as a whole.
type Session struct {
	ID          string
	Label       string
	Transport   string
	Command     []string
	Target      string
	ToolVersion string
	Format      int
	Start       time.Time
	// End is the time of the end record, or of the last record when the
	// capture has none (Ended false).
	End   time.Time
	Ended bool
	// Exit and Signal say how the server exited (from a server-exit note);
	// Exit nil means unknown.
	Exit   *int
	Signal string
	// Eras lists the eras seen ("modern", "legacy"), in order of first use.
	Eras []string
	// ProtocolVersions lists the protocol versions seen, in order.
	ProtocolVersions []string
	Client           Peer
	Server           Peer
	Damage           capture.Damage
	// LostFrames and LostBytes sum the capture-gap notes.
	LostFrames int64
	LostBytes  int64
	// Redacted is set when the session record is marked redacted: the
	// capture was redacted on write, or the reader redacted it on read.
	Redacted bool
	// SSE is the 2024-11-05 HTTP+SSE transport, when the session used it
	// (zero Seq: it did not).
	SSE SSETransport
}

// Peer is what one side said about itself.
type Peer struct {
	Name    string
	Version string
	// Capabilities is the last capabilities object seen (raw JSON), nil
	// when none was seen.
	Capabilities jsontext.Value
	// ElicitForm and ElicitURL report the declared elicitation modes
	// (client only; `elicitation: {}` means form only).
	ElicitForm bool
	ElicitURL  bool
	// SupportedVersions is the server's last server/discover
	// supportedVersions (server only); nil when none was seen.
	SupportedVersions []string
}

// Call statuses.
const (
	StatusOK            = "ok"             // a result (legacy or resultType complete)
	StatusToolError     = "tool-error"     // a result with isError: true
	StatusError         = "error"          // a JSON-RPC error response
	StatusInputRequired = "input-required" // an MRTR interim result
	StatusPending       = "pending"        // no answer (yet)
	StatusCancelled     = "cancelled"      // cancelled and never answered
)

// Eras.
const (
	EraModern = "modern" // 2026-07-28 and later: version in each request's _meta
	EraLegacy = "legacy" // initialize handshake (2025-11-25, 2025-06-18)
)

// Pairing strengths of an MRTR round.
const (
	PairRoot      = "root"      // the operation's first request
	PairStrong    = "strong"    // identical requestState
	PairHeuristic = "heuristic" // method, target, arguments and inputResponses keys
	PairTask      = "task"      // a tasks/* request naming the operation's taskId (task.go)
)

// Call is one request and its answer.
type Call struct {
	Index int
	// Dir is the direction of the request (c2s for client calls, s2c for
	// legacy server-initiated requests).
	Dir    capture.Dir
	Conn   string
	ID     wire.ID
	Method string
	// Target is the tool or prompt name or the resource URI, when the
	// method has one.
	Target          string
	Era             string
	ProtocolVersion string
	RequestSeq      uint64
	// ResponseSeq is zero while the call is unanswered.
	ResponseSeq uint64
	Start       time.Time
	End         time.Time
	// DurationMS is End-Start in milliseconds; zero while unanswered.
	DurationMS float64
	Status     string
	ResultType string
	Error      *CallError
	// CancelSeq is the seq of the notifications/cancelled naming this call,
	// or, for a 2026-07-28 call the client cancelled by closing its HTTP
	// response stream (a note, which has no seq), of the last frame before
	// that close; zero when it was not cancelled. Late is set when a result
	// arrived after the cancellation.
	CancelSeq uint64
	Late      bool
	// Operation is the index of the MRTR operation this call is a round of,
	// or -1; Round is 1-based within it.
	Operation int
	Round     int
	// Parent is, for a legacy server-initiated request, the index of the
	// client call it interrupted, or -1. Attribution says how it was found:
	// "exact" (HTTP stream), "single-in-flight", or "unattributed".
	Parent      int
	Attribution string
	// Negotiation is set on a client's server/discover that the server
	// refused (a JSON-RPC error, or an HTTP error status) and that the
	// client followed with initialize: the spec's era negotiation of a
	// dual-era client with a 2025 server, not a failure. Failed and the
	// summary's Errors leave it out; its Status stays what it was.
	Negotiation bool
}

// Failed reports whether the call failed (Failed of its status), not
// counting a refused era probe (Negotiation).
func (c *Call) Failed() bool { return Failed(c.Status) && !c.Negotiation }

// CallError is a JSON-RPC error answer.
type CallError struct {
	Code    int64
	Message string
}

// Operation is an MRTR chain: a root request and its retries.
type Operation struct {
	Index  int
	Method string
	Target string
	// Root is the index of the first call; RootID its JSON-RPC id.
	Root   int
	RootID wire.ID
	Rounds []Round
	// Status is the final call's status; "input-required" when the chain
	// ended on an interim result that was never retried.
	Status string
	Start  time.Time
	End    time.Time
	// DurationMS runs from the first request to the final answer; WaitMS
	// sums the gaps between each interim result and its retry (the human's
	// time); ToolMS is DurationMS - WaitMS.
	DurationMS float64
	WaitMS     float64
	ToolMS     float64
	// Task describes the task the operation became (ext-tasks): its
	// rounds after the CreateTaskResult are the tasks/* requests naming
	// it, its Status follows the task (pending until a terminal status is
	// seen) and its End is when that status was seen. Task.ID is "" for a
	// plain MRTR operation.
	Task TaskInfo
}

// Round is one request of an operation.
type Round struct {
	Call    int
	ID      wire.ID
	Pairing string
	// InputRequests lists the keys and methods of the inputRequests the
	// round's interim result carried, sorted by key.
	InputRequests []InputRequest
	// HasState reports whether the round's interim result carried a
	// requestState.
	HasState bool
}

// InputRequest is one entry of an interim result's inputRequests.
type InputRequest struct {
	Key    string
	Method string
}

// Summary aggregates calls per method and per tool. An MRTR operation is
// one call, whatever its number of rounds (summary.go). Methods and Tools
// count the client's calls; Server counts the server's requests to the
// client (elicitation/create, sampling, roots, ping) per method, apart, as
// CountCalls does.
type Summary struct {
	Methods []Stat
	Tools   []Stat
	Server  []Stat
}

// Errors returns the number of failed calls and server requests.
func (s *Summary) Errors() int {
	n := 0
	for _, list := range [][]Stat{s.Methods, s.Server} {
		for i := range list {
			n += list[i].Errors
		}
	}
	return n
}

// Stat is the count, error count and latency percentiles of a group of
// calls, an MRTR operation counting as one call of its whole duration and
// final status.
type Stat struct {
	Name string
	// Count is the number of calls, answered or not, each operation once.
	Count int
	// Rounds is the number of requests the calls took: Count plus one per
	// retry of an operation; equal to Count when there is none.
	Rounds int
	// Errors counts the calls that ended in a JSON-RPC error, a tool
	// error or an HTTP error status (Failed).
	Errors int
	// The percentiles are of the answered calls' durations (an
	// operation's from its first request to its final answer); zero when
	// none is answered.
	P50MS float64
	P95MS float64
	P99MS float64
}

// Counts are totals over the session's records.
type Counts struct {
	Records       int
	Frames        int
	C2S           int
	S2C           int
	Bytes         int64
	Invalid       int
	Notifications int
	Stderr        int
	Notes         int
}

// Frame is the store's view of one frame record, handed to Options.OnFrame
// as it is ingested so that views can stream frames without re-parsing.
type Frame struct {
	Seq    uint64
	Time   time.Time
	Dir    capture.Dir
	Conn   string
	Kind   Kind
	ID     wire.ID
	Method string
	Size   int
	// Problem is set for invalid or non-conforming frames.
	Problem string
	// Call is the index of the call the frame opened or answered (for a
	// notifications/cancelled, the call it cancelled), or -1; -1 for a
	// batch, whose elements may touch several calls.
	Call int
	// Record is the capture record (valid only during the callback).
	Record *capture.Record
	// Msg is the decoded message (valid only during the callback); its
	// Kind is Kind.
	Msg *wire.Frame
	// CallMethod is the method of the call at Call; "" when Call is -1.
	// CallEra is that call's era (EraModern, EraLegacy, or "" when it was
	// not classified or Call is -1).
	CallMethod string
	CallEra    string
	// InExchange reports whether the frame travelled in the HTTP exchange
	// of a client call that was still pending when it arrived.
	InExchange bool
	// SSE reports whether the frame crossed the 2024-11-05 HTTP+SSE
	// transport (sse.go): an endpoint event, a message POSTed to the
	// endpoint one named, or the answer to that POST.
	SSE bool
	// Answers lists the ledger rows the frame answered (an MRTR retry's
	// inputResponses, the client's response to a legacy
	// elicitation/create), as the store paired them; nil when it answered
	// none. Valid only during the callback.
	Answers []LedgerRow
}

// CountCalls counts the client's calls, an MRTR operation once (its
// first round), and the server's requests apart: a 2025 session whose
// server asks during its calls made no more calls than a 2026-07-28 one
// whose server asks by MRTR. Every view that shows "calls" of a session
// counts them so (sessions, the index, the TUI's hub).
func (s *Snapshot) CountCalls() (calls, server int) {
	for _, c := range s.Calls.Slice() {
		switch {
		case c.Dir == capture.S2C:
			server++
		case c.Operation < 0 || c.Round <= 1:
			calls++
		}
	}
	return calls, server
}
