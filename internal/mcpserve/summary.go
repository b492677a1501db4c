package mcpserve

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/units"
)

// sessionArgs name one session: an id or unique id prefix, "" the newest.
type sessionArgs struct {
	Session string `json:"session"`
}

// How many failed and slowest calls a summary lists.
const (
	summaryErrors  = 10
	summarySlowest = 5
)

// summary is the session_summary tool's answer: what an agent reads
// first about a session.
type summary struct {
	Session  header        `json:"session"`
	Counts   counts        `json:"counts"`
	Errors   errorsPart    `json:"errors"`
	Slowest  []callRow     `json:"slowest"`
	Ledger   ledgerCounts  `json:"ledger"`
	Findings findingCounts `json:"findings"`
	// Omitted says what a summary cut to fit its budget left out of its
	// lists; "" when nothing.
	Omitted string `json:"omitted,omitempty"`
}

type header struct {
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	Transport string    `json:"transport"`
	Target    string    `json:"target,omitempty"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Ended     bool      `json:"ended"`
	// Live is set when a proxy is still writing the capture: the
	// session is read as far as it is written.
	Live             bool     `json:"live"`
	DurationMS       float64  `json:"duration_ms"`
	Client           peer     `json:"client"`
	Server           peer     `json:"server"`
	ProtocolVersions []string `json:"protocol_versions"`
	Exit             *int     `json:"exit,omitempty"`
	Signal           string   `json:"signal,omitempty"`
	Redacted         bool     `json:"redacted"`
	Damage           damage   `json:"damage"`
	LostFrames       int64    `json:"lost_frames"`
}

type peer struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type damage struct {
	Torn      bool  `json:"torn"`
	TornBytes int64 `json:"torn_bytes"`
	Corrupt   int   `json:"corrupt"`
}

// counts are the session's totals as the CLI counts them: Requests every
// request either way; Calls the client's, an MRTR operation once; Rounds
// the retries beyond; ServerRequests the server's requests to the client.
type counts struct {
	Records        int   `json:"records"`
	Frames         int   `json:"frames"`
	Bytes          int64 `json:"bytes"`
	Requests       int   `json:"requests"`
	Calls          int   `json:"calls"`
	Rounds         int   `json:"more_rounds"`
	ServerRequests int   `json:"server_requests"`
	Notifications  int   `json:"notifications"`
	Invalid        int   `json:"invalid"`
	Stderr         int   `json:"stderr"`
}

// errorsPart counts the failed calls (the summary's ERRORS, an operation
// once) and lists the first failed requests.
type errorsPart struct {
	Total int       `json:"total"`
	Calls []callRow `json:"calls"`
}

// callRow is one request as a summary lists it.
type callRow struct {
	Call         int     `json:"call"`
	Dir          string  `json:"dir"`
	Method       string  `json:"method"`
	Target       string  `json:"target,omitempty"`
	Status       string  `json:"status"`
	Answered     bool    `json:"answered"`
	DurationMS   float64 `json:"duration_ms"`
	ErrorCode    *int64  `json:"error_code,omitempty"`
	ErrorMessage string  `json:"error_message,omitempty"`
}

type ledgerCounts struct {
	Questions int            `json:"questions"`
	Mode      map[string]int `json:"mode"`
	Action    map[string]int `json:"action"`
	Status    map[string]int `json:"status"`
}

type findingCounts struct {
	Total   int         `json:"total"`
	Error   int         `json:"error"`
	Warning int         `json:"warning"`
	Info    int         `json:"info"`
	Rules   []ruleCount `json:"rules"`
}

type ruleCount struct {
	Rule     string           `json:"rule"`
	Severity finding.Severity `json:"severity"`
	Count    int              `json:"count"`
}

func (s *Server) sessionSummary(raw []byte) (*page, error) {
	var a sessionArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	snap, err := s.load(a.Session)
	if err != nil {
		return nil, err
	}
	sum := summarize(snap)
	sum.Session.Live = s.live
	return &page{
		head: func(limit int) ([]byte, error) { return marshal(sum.trim(limit), limit) },
		text: func(limit int) string { return sum.trim(limit).text(limit) },
	}, nil
}

// trim returns sum with its lists as long as strings cut to limit bytes
// afford (the budget's later tries cut both), saying what it left out.
func (sum *summary) trim(limit int) *summary {
	n := 10
	switch {
	case limit < 64:
		n = 2
	case limit < 256:
		n = 5
	}
	t := *sum
	var left []string
	if len(t.Errors.Calls) > n {
		t.Errors.Calls = t.Errors.Calls[:n]
		left = append(left, fmt.Sprintf("failed calls after the first %d", n))
	}
	if len(t.Slowest) > n {
		t.Slowest = t.Slowest[:n]
	}
	if len(t.Findings.Rules) > n {
		t.Findings.Rules = t.Findings.Rules[:n]
		left = append(left, fmt.Sprintf("rules after the %d most raised (the check tool lists every finding)", n))
	}
	if len(left) > 0 {
		t.Omitted = "left out: " + strings.Join(left, "; ")
	}
	return &t
}

func summarize(snap *store.Snapshot) *summary {
	ss := &snap.Session
	sum := &summary{Session: header{
		ID: ss.ID, Label: ss.Label, Transport: ss.Transport, Target: ss.Target, Start: ss.Start.UTC(), End: ss.End.UTC(),
		Ended: ss.Ended, DurationMS: float64(ss.End.Sub(ss.Start).Microseconds()) / 1000,
		Client: peer{ss.Client.Name, ss.Client.Version}, Server: peer{ss.Server.Name, ss.Server.Version},
		ProtocolVersions: nonNil(ss.ProtocolVersions), Exit: ss.Exit, Signal: ss.Signal, Redacted: ss.Redacted,
		Damage:     damage{Torn: ss.Damage.Torn, TornBytes: ss.Damage.TornBytes, Corrupt: ss.Damage.Corrupt},
		LostFrames: ss.LostFrames,
	}}
	calls, server := snap.CountCalls()
	c := &snap.Counts
	sum.Counts = counts{Records: c.Records, Frames: c.Frames, Bytes: c.Bytes, Requests: snap.Calls.Len(), Calls: calls,
		Rounds: snap.Calls.Len() - calls - server, ServerRequests: server, Notifications: c.Notifications, Invalid: c.Invalid, Stderr: c.Stderr}
	sum.Errors = errorsPart{Total: snap.Summary.Errors(), Calls: []callRow{}}
	var answered []callRow
	for i := range snap.Calls.Len() {
		call := snap.Calls.At(i)
		if call.Failed() && len(sum.Errors.Calls) < summaryErrors {
			sum.Errors.Calls = append(sum.Errors.Calls, rowOf(&call))
		}
		// The slowest are the client's calls, an MRTR operation once for
		// its whole duration (as every count of calls goes); the server's
		// requests are timed by the client's user, not the server.
		switch {
		case call.Dir == capture.S2C:
		case call.Operation >= 0:
			// Ended: its last round answered (a task: its terminal status seen).
			if op := snap.Operations.At(call.Operation); call.Round <= 1 && !op.End.IsZero() {
				r := rowOf(&call)
				r.Status, r.DurationMS = op.Status, op.DurationMS
				answered = append(answered, r)
			}
		case call.ResponseSeq != 0:
			answered = append(answered, rowOf(&call))
		}
	}
	slices.SortStableFunc(answered, func(a, b callRow) int { return cmp.Compare(b.DurationMS, a.DurationMS) })
	sum.Slowest = answered[:min(len(answered), summarySlowest)]
	if sum.Slowest == nil {
		sum.Slowest = []callRow{}
	}
	lc := store.CountLedger(snap.Ledger.Slice())
	sum.Ledger = ledgerCounts{Questions: snap.Ledger.Len(), Mode: tally(lc.Modes), Action: tally(lc.Actions), Status: tally(lc.Statuses)}
	sum.Findings = countFindings(snap)
	return sum
}

func rowOf(c *store.Call) callRow {
	r := callRow{Call: c.Index, Dir: string(c.Dir), Method: c.Method, Target: c.Target, Status: c.Status,
		Answered: c.ResponseSeq != 0, DurationMS: c.DurationMS}
	if c.Error != nil {
		code := c.Error.Code
		r.ErrorCode, r.ErrorMessage = &code, c.Error.Message
	}
	return r
}

func tally(cs []store.Count) map[string]int {
	m := make(map[string]int, len(cs))
	for _, c := range cs {
		m[c.Name] = c.N
	}
	return m
}

// countFindings counts the snapshot's findings (graded by the user's
// rules) by severity and by rule, the most raised rule first.
func countFindings(snap *store.Snapshot) findingCounts {
	fc := findingCounts{Rules: []ruleCount{}}
	at := map[string]int{}
	for f := range snap.Findings.All() {
		fc.Total++
		switch f.Severity {
		case finding.Error:
			fc.Error++
		case finding.Warning:
			fc.Warning++
		default:
			fc.Info++
		}
		i, ok := at[f.Rule]
		if !ok {
			i = len(fc.Rules)
			at[f.Rule] = i
			fc.Rules = append(fc.Rules, ruleCount{Rule: f.Rule, Severity: f.Severity})
		}
		fc.Rules[i].Count++
	}
	slices.SortStableFunc(fc.Rules, func(a, b ruleCount) int { return cmp.Compare(b.Count, a.Count) })
	return fc
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// text is the summary as a few lines, strings cut to limit bytes.
func (sum *summary) text(limit int) string {
	var b strings.Builder
	h := &sum.Session
	end := "no end record"
	if h.Live {
		end = "live (still captured; read as far as written)"
	} else if h.Ended {
		end = "ended"
	}
	fmt.Fprintf(&b, "session %s %q over %s, started %s, %s after %s\n", show(h.ID, limit), show(h.Label, limit),
		show(h.Transport, limit), h.Start.Format(time.RFC3339), end, units.Millis(h.DurationMS))
	fmt.Fprintf(&b, "client %s %s, server %s %s, protocol %s\n", show(h.Client.Name, limit), show(h.Client.Version, limit),
		show(h.Server.Name, limit), show(h.Server.Version, limit), show(strings.Join(h.ProtocolVersions, ", "), limit))
	if d := h.Damage; d.Torn || d.Corrupt > 0 || h.LostFrames > 0 {
		fmt.Fprintf(&b, "damage: torn last line %v (%d bytes), %d corrupt lines, %d frames lost\n", d.Torn, d.TornBytes, d.Corrupt, h.LostFrames)
	}
	c := &sum.Counts
	fmt.Fprintf(&b, "requests %d: %s, %s, %s; %s; %s, %s, %d invalid\n", c.Requests, plural(c.Calls, "call"),
		plural(c.Rounds, "more round"), plural(c.ServerRequests, "server request"), plural(sum.Errors.Total, "error"),
		plural(c.Frames, "frame"), plural(c.Notifications, "notification"), c.Invalid)
	for _, r := range sum.Errors.Calls {
		fmt.Fprintf(&b, "  failed: %s\n", r.line(limit))
	}
	for _, r := range sum.Slowest {
		fmt.Fprintf(&b, "  slow: %s\n", r.line(limit))
	}
	l := &sum.Ledger
	fmt.Fprintf(&b, "ledger: %s; mode %s; action %s; status %s\n", plural(l.Questions, "question"), tallyText(l.Mode, limit),
		tallyText(l.Action, limit), tallyText(l.Status, limit))
	f := &sum.Findings
	fmt.Fprintf(&b, "findings: %d (%d error, %d warning, %d info)", f.Total, f.Error, f.Warning, f.Info)
	for _, r := range f.Rules {
		fmt.Fprintf(&b, "; %s %s ×%d", show(r.Rule, limit), r.Severity, r.Count)
	}
	b.WriteString("\n")
	if sum.Omitted != "" {
		b.WriteString(sum.Omitted + "\n")
	}
	return b.String()
}

func (r *callRow) line(limit int) string {
	s := fmt.Sprintf("call %d %s", r.Call, show(r.Method, limit))
	if r.Target != "" {
		s += " " + show(r.Target, limit)
	}
	if r.Answered {
		s += " " + units.Millis(r.DurationMS)
	} else {
		s += " unanswered"
	}
	s += " " + show(r.Status, limit)
	if r.ErrorCode != nil {
		s += fmt.Sprintf(" error %d %s", *r.ErrorCode, show(r.ErrorMessage, limit))
	}
	return s
}

func tallyText(m map[string]int, limit int) string {
	if len(m) == 0 {
		return "-"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", show(k, limit), m[k]))
	}
	return strings.Join(parts, ", ")
}
