package index

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Session is one session of a capture as the index holds it. A file
// written with --append holds several, told apart by Ord.
type Session struct {
	Path string
	// Ord is the session's place in its file, from 0.
	Ord         int
	ID          string
	Label       string
	Transport   string
	Target      string
	ToolVersion string
	Start       time.Time
	End         time.Time
	Ended       bool
	Records     int
	Frames      int
	Bytes       int64
	// Calls counts the calls the client made, an MRTR operation once
	// however many rounds it took; ServerRequests counts the requests
	// the server sent the client (legacy elicitation/create, sampling,
	// roots/list, ping), which are not calls. Errors is the summary's:
	// the calls either way that failed.
	Calls          int
	ServerRequests int
	Errors         int
	// Asked counts the elicitation ledger's rows.
	Asked         int
	ClientName    string
	ClientVersion string
	// ElicitForm and ElicitURL are the elicitation modes the client
	// declared.
	ElicitForm    bool
	ElicitURL     bool
	ServerName    string
	ServerVersion string
	Damage        capture.Damage
	// Header is the capture's session record, for a reader that redacts
	// what it shows (its label).
	Header capture.Record
}

// CallGroup is the calls of a session with one method and target, each
// MRTR operation once (as the summary counts them).
type CallGroup struct {
	Method string
	Target string
	// Server marks the server's requests to the client, which are not
	// calls (store.CountCalls).
	Server bool
	Calls  int
	Errors int
	// DurationsMS holds the answered calls' durations, in call order (an
	// operation's from its first request to its final answer).
	DurationsMS []float64
}

// Question is one elicitation ledger row, without the form's fields: the
// question and its outcome, never a submitted value.
type Question struct {
	// RootMethod and Tool are the method and target of the client call the
	// question belongs to.
	RootMethod string
	Tool       string
	// Key is the inputRequests key (MRTR); Message is the question's text.
	Key     string
	Message string
	Mode    string
	Era     string
	Action  string
	Status  string
	AskedAt time.Time
	// ElapsedMS is the time to answer (zero unless answered). WaitMS is
	// the human's share of OpMS, the operation's time: for an MRTR
	// question the operation's wait and duration, for a legacy one the
	// time to answer and the interrupted call's duration (both zero when
	// unknown).
	ElapsedMS float64
	WaitMS    float64
	OpMS      float64
}

// AnswerGroup sums a session's questions with one tool, question (the
// inputRequests key, else the message) and mode: what stats reads.
type AnswerGroup struct {
	Tool     string
	Question string
	Mode     string
	Asked    int
	Accept   int
	Decline  int
	Cancel   int
	// Pending counts the questions never answered.
	Pending int
	// ElapsedMS holds the answered questions' times to answer.
	ElapsedMS []float64
	// WaitMS and OpMS sum the questions' WaitMS and OpMS, over those
	// whose OpMS is known.
	WaitMS float64
	OpMS   float64
}

// CatalogEntry is one definition the server listed, by hash.
type CatalogEntry struct {
	Kind string
	Key  string
	Hash string
}

// RuleCount is how many findings of one rule (at one severity) a session
// raised.
type RuleCount struct {
	Rule     string
	Severity string
	N        int
}

// Entry is everything the index keeps of one session.
type Entry struct {
	Session  Session
	Calls    []CallGroup
	Ledger   []Question
	Answers  []AnswerGroup
	Catalog  []CatalogEntry
	Findings []RuleCount
}
