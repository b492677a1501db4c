package htmlexport

import (
	"embed"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/units"
)

//go:embed assets/page.html.tmpl assets/report.css assets/filter.js assets/report.js
var assets embed.FS

// pageTemplate is the page's skeleton: "head" (everything up to the data
// blocks) and "script". It is parsed once and only read.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"dict": dict, "add": func(a, b int) int { return a + b }}).ParseFS(assets, "assets/page.html.tmpl"))

// dict makes a map of its key, value arguments (for a sub-template).
func dict(kv ...any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// maxFindings is how many findings the page lists; the rest are counted
// (export -T json has them all).
const maxFindings = 2000

// page is what the template shows. Every string from the capture went
// through shown, and html/template escapes it.
type page struct {
	ID, Label, Transport, Target, Command string
	Start, End, Duration                  string
	Ended                                 bool
	Client, Server                        string
	Eras, Versions                        string
	ElicitForm, ElicitURL                 bool
	Damage                                string
	Redacted                              bool
	Counts                                store.Counts
	Rows                                  int // rows of the calls table
	// The overview: the calls as a person counts them (an MRTR operation
	// once, its retries as rounds, the server's requests apart), the
	// calls that failed, the questions by outcome, the findings by
	// severity.
	Calls, MoreRounds, ServerRequests int
	Errors                            []errorView
	MoreErrors                        int
	Outcomes                          []countView
	Severities                        []countView
	Ledger                            []ledgerView
	Auth                              []authFlowView // auth.go; nil: no section
	Proofs                            []proofView    // auth.go: the DPoP proofs, shown in the auth section
	Findings                          []findingView
	MoreFindings                      int
	Catalog                           []catalogView
	Methods, Tools, ServerStats       []statView
	Version                           string
	CSS                               template.CSS
	JS                                template.JS
}

// errorView is one failed call of the overview.
type errorView struct {
	Call                            int
	Method, Target, Status, Message string
}

// countView is one "N what" of the overview; Class styles it.
type countView struct {
	N           int
	What, Class string
}

// maxErrors is how many failed calls the overview lists.
const maxErrors = 8

type ledgerView struct {
	Call                              int
	Question, Mode, Fields, Action    string
	Wait, Status, Target, Method, Era string
	URL                               bool
}

type findingView struct {
	Rule, Severity, Message, Summary, Help string
	Call                                   int
	Seq                                    uint64
	Line                                   int // the capture line, as in SARIF; 0 when session-wide
}

type catalogView struct {
	Method   string
	Complete bool
	Defs     []defView
}

type defView struct{ Key, Title, Description string }

type statView struct {
	Name                  string
	Count, Rounds, Errors int
	P50, P95, P99         string
}

// newPage builds the page model of snap.
func newPage(snap *store.Snapshot, opts *Options) *page {
	s := &snap.Session
	p := &page{
		ID: shown(s.ID), Label: shown(s.Label), Transport: shown(transport(s)), Target: shown(s.Target),
		Command: shown(strings.Join(s.Command, " ")), Start: stamp(s.Start), End: stamp(s.End), Ended: s.Ended,
		Client: peer(s.Client), Server: peer(s.Server), Eras: shown(strings.Join(s.Eras, ", ")),
		Versions: shown(strings.Join(s.ProtocolVersions, ", ")), ElicitForm: s.Client.ElicitForm, ElicitURL: s.Client.ElicitURL,
		Damage: damage(s), Redacted: s.Redacted, Counts: snap.Counts, Version: shown(opts.Version),
	}
	if !s.Start.IsZero() && !s.End.IsZero() {
		p.Duration = units.Duration(s.End.Sub(s.Start))
	}
	for i := range snap.Calls.Len() {
		if c := snap.Calls.At(i); c.Operation < 0 || c.Round <= 1 {
			p.Rows++
		}
	}
	p.Calls, p.ServerRequests = snap.CountCalls()
	p.MoreRounds = snap.Calls.Len() - p.ServerRequests - p.Calls
	p.Errors, p.MoreErrors = errorViews(snap)
	p.Outcomes = outcomeCounts(snap)
	p.Severities = severityCounts(snap)
	p.Ledger = ledgerViews(snap)
	p.Findings, p.MoreFindings = findingViews(snap, opts.Rules)
	p.Catalog = catalogViews(snap.Catalog)
	p.Methods, p.Tools = statViews(snap.Summary.Methods), statViews(snap.Summary.Tools)
	p.ServerStats = statViews(snap.Summary.Server)
	css, _ := assets.ReadFile("assets/report.css")
	filter, _ := assets.ReadFile("assets/filter.js")
	js, _ := assets.ReadFile("assets/report.js")
	p.CSS, p.JS = template.CSS(css), template.JS(string(filter)+"\n"+string(js))
	return p
}

// rowCall returns the calls-table row of call i: the root of its MRTR
// operation, or i itself; -1 stays -1.
func rowCall(snap *store.Snapshot, i int) int {
	if i < 0 || i >= snap.Calls.Len() {
		return -1
	}
	if c := snap.Calls.At(i); c.Operation >= 0 && c.Operation < snap.Operations.Len() {
		return snap.Operations.At(c.Operation).Root
	}
	return i
}

// failed reports whether a call or operation of status st failed.
func failed(st string) bool {
	return st == store.StatusError || st == store.StatusToolError || st == store.StatusHTTPError
}

// errorViews lists the rows of the calls table that failed: an MRTR
// operation by its final status, another call by its own.
func errorViews(snap *store.Snapshot) ([]errorView, int) {
	var out []errorView
	more := 0
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		st := c.Status
		if c.Operation >= 0 && c.Operation < snap.Operations.Len() {
			op := snap.Operations.At(c.Operation)
			if op.Root != i {
				continue
			}
			st = op.Status
		}
		if !failed(st) {
			continue
		}
		if len(out) >= maxErrors {
			more++
			continue
		}
		v := errorView{Call: i, Method: shown(c.Method), Target: shown(c.Target), Status: shown(st)}
		if c.Error != nil {
			v.Message = shown(cut(c.Error.Message, 200))
		}
		out = append(out, v)
	}
	return out, more
}

// outcomeCounts counts the ledger's questions by outcome: accepted,
// declined, cancelled, pending, then any other (required, error).
func outcomeCounts(snap *store.Snapshot) []countView {
	order := []string{"accept", "decline", "cancel", store.LedgerPending}
	label := map[string]string{"accept": "accepted", "decline": "declined", "cancel": "cancelled"}
	n := map[string]int{}
	var other []string
	for _, r := range snap.Ledger.All() {
		o := outcome(&r)
		if n[o] == 0 && !slices.Contains(order, o) {
			other = append(other, o)
		}
		n[o]++
	}
	var out []countView
	for _, o := range append(order, other...) {
		if n[o] == 0 && !slices.Contains(order, o) {
			continue
		}
		w := label[o]
		if w == "" {
			w = o
		}
		out = append(out, countView{N: n[o], What: shown(w), Class: "a-" + shown(o)})
	}
	return out
}

// severityCounts counts the findings by severity, the worst first.
func severityCounts(snap *store.Snapshot) []countView {
	n := map[finding.Severity]int{}
	for f := range snap.Findings.All() {
		n[f.Severity]++
	}
	var out []countView
	for _, sev := range []finding.Severity{finding.Error, finding.Warning, finding.Info} {
		if n[sev] > 0 {
			out = append(out, countView{N: n[sev], What: string(sev), Class: "sev-" + string(sev)})
		}
	}
	return out
}

func ledgerViews(snap *store.Snapshot) []ledgerView {
	out := make([]ledgerView, 0, snap.Ledger.Len())
	for _, r := range snap.Ledger.All() {
		call := r.Root.Call
		if call < 0 {
			call = rowCall(snap, r.Call)
		}
		v := ledgerView{Call: call, Question: shown(r.Message), Mode: shown(r.Mode), Action: shown(outcome(&r)),
			Status: shown(r.Status), Target: shown(r.Root.Target), Method: shown(r.Root.Method), Era: shown(r.Era), Wait: "—"}
		if r.Mode == "url" || r.URL != "" {
			v.URL = true
			v.Fields = shown(r.URL)
			if r.Host != "" {
				v.Fields = shown(r.Host) + " — " + v.Fields
			}
		} else {
			names := make([]string, 0, len(r.Fields))
			for _, f := range r.Fields {
				n := f.Name + ": " + f.Type
				if f.Options != nil {
					n += " (" + strings.Join(f.Options, ", ") + ")"
				}
				if f.Required {
					n += " (required)"
				}
				names = append(names, n)
			}
			v.Fields = shown(strings.Join(names, ", "))
			if r.Resource != "" { // an app renders the form (SEP-3118)
				v.Fields = shown("rendered by "+r.Resource) + " — " + v.Fields
			}
		}
		if r.Status == store.LedgerAnswered {
			v.Wait = units.Millis(r.ElapsedMS)
		}
		out = append(out, v)
	}
	return out
}

func findingViews(snap *store.Snapshot, reg *finding.Registry) ([]findingView, int) {
	if reg == nil {
		reg = rules.Default()
	}
	var out []findingView
	more := 0
	for f := range snap.Findings.All() {
		if len(out) >= maxFindings {
			more++
			continue
		}
		v := findingView{Rule: shown(f.Rule), Severity: shown(string(f.Severity)), Message: shown(f.Message),
			Call: rowCall(snap, f.Call), Seq: f.Seq, Line: f.Line}
		if r, ok := reg.Rule(f.Rule); ok {
			v.Summary, v.Help = shown(r.Summary), shown(r.Help)
		}
		out = append(out, v)
	}
	return out, more
}

func catalogViews(c *store.Catalog) []catalogView {
	if c == nil {
		return nil
	}
	out := make([]catalogView, 0, len(c.Lists))
	for _, l := range c.Lists {
		v := catalogView{Method: shown(l.Method), Complete: l.Complete}
		for _, d := range l.Definitions {
			v.Defs = append(v.Defs, defView{Key: shown(d.Key), Title: shown(d.Title), Description: shown(cut(d.Description, 400))})
		}
		out = append(out, v)
	}
	return out
}

func statViews(stats []store.Stat) []statView {
	out := make([]statView, 0, len(stats))
	for _, s := range stats {
		out = append(out, statView{Name: shown(s.Name), Count: s.Count, Rounds: s.Rounds, Errors: s.Errors,
			P50: units.Millis(s.P50MS), P95: units.Millis(s.P95MS), P99: units.Millis(s.P99MS)})
	}
	return out
}

func peer(p store.Peer) string {
	if p.Name == "" && p.Version == "" {
		return "—"
	}
	return shown(strings.TrimSpace(p.Name + " " + p.Version))
}

func damage(s *store.Session) string {
	var parts []string
	if d := s.Damage.String(); d != "" {
		parts = append(parts, d)
	}
	if s.LostFrames > 0 || s.LostBytes > 0 {
		parts = append(parts, fmt.Sprintf("%d frames (%d bytes) lost", s.LostFrames, s.LostBytes))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return units.Time(t)
}

// cut shortens s to at most n runes, with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// shown returns s as the page shows it: controls other than newline and
// tab, bidi controls and U+2028/U+2029 written as visible \uXXXX text (so
// they cannot reorder or break what is around them), invalid UTF-8 as
// U+FFFD. html/template escapes the rest.
// transport is the session's transport, naming the 2024-11-05 HTTP+SSE
// transport and its endpoint when the session used it.
func transport(s *store.Session) string {
	if s.SSE.Seq == 0 {
		return s.Transport
	}
	t := s.Transport + ", HTTP+SSE (" + mcp.VersionHTTPSSE + ")"
	if s.SSE.Endpoint != "" {
		t += ": messages POSTed to " + s.SSE.Endpoint
	}
	return t
}

func shown(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteRune(r)
		case (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
