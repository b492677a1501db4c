package store

import (
	"slices"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// The elicitation ledger: one row per elicitation/create the session
// carried, inside an MRTR interim result's inputRequests (2026-07-28) or as
// a legacy server-to-client request (2025-06-18, 2025-11-25), paired with
// its answer. A row describes the question and the outcome and never
// carries a value from an answer's content: the row type has nowhere to put
// one (issue 3, "a row never carries a submitted value").

// Ledger eras (LedgerRow.Era).
const (
	LedgerMRTR   = "mrtr"   // asked inside inputRequests, answered in the retry's inputResponses
	LedgerLegacy = "legacy" // a server-initiated request, or a -32042 error's data.elicitations
)

// Ledger statuses (LedgerRow.Status).
const (
	LedgerAnswered = "answered" // an answer arrived (Action holds its action)
	LedgerPending  = "pending"  // no answer arrived: no retry, or a retry without this key
	LedgerRequired = "required" // a -32042 error: the server refused until the user visits the url
	LedgerError    = "error"    // the client answered a legacy request with a JSON-RPC error
)

// Observations on a row (LedgerRow.Observations). They describe, they do
// not judge: none of them is a finding.
const (
	ObsURLInvalid     = "url-invalid"      // the url does not parse as an absolute url with a host
	ObsHostIPLiteral  = "host-ip-literal"  // the url's host is an IP address
	ObsSchemeNotHTTPS = "scheme-not-https" // the url's scheme is not https
	ObsURLUserinfo    = "url-userinfo"     // the url carries userinfo before the host
	ObsHostIDN        = "host-idn"         // the host has a punycode (xn--) or non-ASCII label
	ObsModeUndeclared = "mode-undeclared"  // the client did not declare the mode it was asked in
)

// LedgerRow is one question a server put to the user and what became of
// it. A renderer needs nothing but the row.
type LedgerRow struct {
	// Root is the client call the question belongs to: the MRTR
	// operation's root request, the client call a legacy request
	// interrupted, or the call a -32042 error answered.
	Root LedgerRoot
	// Round is the 1-based MRTR round whose interim result carried the
	// question; zero for legacy rows.
	Round int
	// RequestID is the id of the request the question came with: the
	// round's request (MRTR, -32042) or the server's own elicitation/create
	// (legacy, server id space).
	RequestID wire.ID
	// Key is the inputRequests key (MRTR only; legacy rows have none).
	Key     string
	Era     string
	Mode    string
	Message string
	// Fields lists the form's properties (form mode; nil otherwise).
	Fields []LedgerField
	// URL and Host are the url-mode url and its host name; ElicitationID
	// is the legacy url-mode elicitationId. Empty in form mode.
	URL           string
	Host          string
	ElicitationID string
	// Resource is the ui:// resource of the MCP App that renders the form
	// (mode app, SEP-3118); empty in other modes.
	Resource string
	// Action is the answer's action verbatim; empty unless answered.
	Action string
	Status string
	// AskedAt and AskedSeq are the time and seq of the frame that carried
	// the question; AnsweredAt, AnsweredSeq and ElapsedMS (their distance)
	// are zero unless answered. CompletedAt is the time of a legacy
	// notifications/elicitation/complete naming ElicitationID, else zero.
	AskedAt     time.Time
	AnsweredAt  time.Time
	CompletedAt time.Time
	ElapsedMS   float64
	AskedSeq    uint64
	AnsweredSeq uint64
	// AskedLine and AnsweredLine are the capture file lines of the frames
	// at AskedSeq and AnsweredSeq; zero when unknown (a live or in-memory
	// record) or unanswered.
	AskedLine    int
	AnsweredLine int
	// AskedConn and AnsweredConn are the connection or stream id of those
	// frames ("" on a transport with one, or unanswered): with the seqs
	// and lines, what a view needs to open either frame.
	AskedConn    string
	AnsweredConn string
	// Entry is the question's 0-based position in a -32042 error's
	// data.elicitations (mcp.RequiredElicitation); zero for other rows,
	// whose question Key (MRTR) or the whole params (legacy) names.
	Entry int
	// Observations lists the Obs* values that apply, in declaration order.
	Observations []string
	// Call is the index of the call that carried the question; Operation
	// the MRTR operation of the root (-1 for none), whose WaitMS and
	// ToolMS (the human's time and the server's) are copied here.
	Call      int
	Operation int
	WaitMS    float64
	ToolMS    float64
}

// LedgerRoot identifies the client call a row belongs to. Call is -1 when
// no call could be attributed (Method and Target are then empty and ID
// zero).
type LedgerRoot struct {
	Call   int
	ID     wire.ID
	Method string
	Target string
}

// LedgerField is one property a form asked for: its name, declared type
// (mcp.FieldType: an enum, a union such as "string|null", mcp.FieldUnknown
// when the subschema is not an object) and whether it is required. A
// select field's options are the server's words and are kept; defaults
// and examples are never kept.
type LedgerField struct {
	Name     string
	Type     string
	Required bool
	// Options lists a select field's options in wire order; nil otherwise.
	Options []string
}

// LedgerCounts counts rows by mode, action and status, each sorted by name.
// Rows without an action are not counted under Actions.
type LedgerCounts struct {
	Modes    []Count
	Actions  []Count
	Statuses []Count
}

// Count is one named tally.
type Count struct {
	Name string
	N    int
}

// CountLedger tallies rows by mode, action and status.
func CountLedger(rows []LedgerRow) LedgerCounts {
	var modes, actions, statuses []Count
	for i := range rows {
		r := &rows[i]
		modes = tally(modes, r.Mode)
		if r.Action != "" {
			actions = tally(actions, r.Action)
		}
		statuses = tally(statuses, r.Status)
	}
	return LedgerCounts{Modes: modes, Actions: actions, Statuses: statuses}
}

func tally(counts []Count, name string) []Count {
	i, found := slices.BinarySearchFunc(counts, name, func(c Count, n string) int { return strings.Compare(c.Name, n) })
	if found {
		counts[i].N++
		return counts
	}
	return slices.Insert(counts, i, Count{Name: name, N: 1})
}

// newRow builds the part of a row that the question alone decides; at is
// the frame that carried it.
func newRow(era string, q *mcp.ElicitRequest, at *frameRef, declared modes) LedgerRow {
	row := LedgerRow{
		Era: era, Mode: q.Mode, Message: q.Message, URL: q.URL, ElicitationID: q.ElicitationID, Resource: q.Resource,
		Status: LedgerPending, AskedAt: at.time, AskedSeq: at.seq, AskedLine: at.line, AskedConn: at.conn,
		Call: -1, Operation: -1,
	}
	if q.Fields != nil {
		row.Fields = make([]LedgerField, len(q.Fields))
		for i, f := range q.Fields {
			row.Fields[i] = LedgerField{Name: f.Name, Type: f.Type, Required: f.Required, Options: f.Options}
		}
	}
	if q.Mode == mcp.ModeURL {
		info := mcp.InspectURL(q.URL)
		row.Host = info.Host
		row.Observations = urlObservations(info)
	}
	if !declared.allow(q.Mode) {
		row.Observations = append(row.Observations, ObsModeUndeclared)
	}
	return row
}

func urlObservations(info mcp.URLInfo) []string {
	var obs []string
	add := func(ok bool, o string) {
		if ok {
			obs = append(obs, o)
		}
	}
	add(info.Invalid, ObsURLInvalid)
	add(info.IPLiteral, ObsHostIPLiteral)
	add(info.NotHTTPS, ObsSchemeNotHTTPS)
	add(info.Userinfo, ObsURLUserinfo)
	add(info.IDN, ObsHostIDN)
	return obs
}

// frameRef is where a frame sits in the capture, as a row refers to it.
type frameRef struct {
	time time.Time
	seq  uint64
	line int
	conn string
}

// answered records an answer, carried by the frame at, on a row.
func (r *LedgerRow) answered(action string, at *frameRef) {
	r.Status, r.Action = LedgerAnswered, action
	r.AnsweredAt, r.AnsweredSeq, r.AnsweredLine, r.AnsweredConn = at.time, at.seq, at.line, at.conn
	r.ElapsedMS = ms(at.time.Sub(r.AskedAt))
}

// modes is what one request declared about elicitation, packed in a byte.
type modes uint8

const (
	modesKnown modes = 1 << iota // the declaration is known (else nothing is observed)
	modesForm
	modesURL
)

// allow reports whether the declaration allows mode; an unknown
// declaration allows everything.
func (m modes) allow(mode string) bool {
	switch {
	case m&modesKnown == 0:
		return true
	case mode == mcp.ModeForm || mode == mcp.ModeApp: // an app renders a form (SEP-3118)
		return m&modesForm != 0
	case mode == mcp.ModeURL:
		return m&modesURL != 0
	}
	return false
}

func modesOf(form, url bool) modes {
	m := modesKnown
	if form {
		m |= modesForm
	}
	if url {
		m |= modesURL
	}
	return m
}
