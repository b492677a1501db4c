package htmlexport

import (
	"embed"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

//go:embed assets/page.html.tmpl assets/report.css assets/filter.js assets/report.js
var assets embed.FS

// pageTemplate is the page's skeleton: "head" (everything up to the data
// blocks) and "script". It is parsed once and only read.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"dict": dict}).ParseFS(assets, "assets/page.html.tmpl"))

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
	Ledger                                []ledgerView
	Auth                                  []authFlowView // auth.go; nil: no section
	Findings                              []findingView
	MoreFindings                          int
	Catalog                               []catalogView
	Methods, Tools                        []statView
	Version                               string
	CSS                                   template.CSS
	JS                                    template.JS
}

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
		ID: shown(s.ID), Label: shown(s.Label), Transport: shown(s.Transport), Target: shown(s.Target),
		Command: shown(strings.Join(s.Command, " ")), Start: stamp(s.Start), End: stamp(s.End), Ended: s.Ended,
		Client: peer(s.Client), Server: peer(s.Server), Eras: shown(strings.Join(s.Eras, ", ")),
		Versions: shown(strings.Join(s.ProtocolVersions, ", ")), ElicitForm: s.Client.ElicitForm, ElicitURL: s.Client.ElicitURL,
		Damage: damage(s), Redacted: s.Redacted, Counts: snap.Counts, Version: shown(opts.Version),
	}
	if !s.Start.IsZero() && !s.End.IsZero() {
		p.Duration = s.End.Sub(s.Start).Round(time.Millisecond).String()
	}
	for i := range snap.Calls.Len() {
		if c := snap.Calls.At(i); c.Operation < 0 || c.Round <= 1 {
			p.Rows++
		}
	}
	p.Ledger = ledgerViews(snap)
	p.Findings, p.MoreFindings = findingViews(snap, opts.Rules)
	p.Catalog = catalogViews(snap.Catalog)
	p.Methods, p.Tools = statViews(snap.Summary.Methods), statViews(snap.Summary.Tools)
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
		}
		if r.Status == store.LedgerAnswered {
			v.Wait = ms(r.ElapsedMS)
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
			P50: ms(s.P50MS), P95: ms(s.P95MS), P99: ms(s.P99MS)})
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
	return t.UTC().Format("2006-01-02 15:04:05.000 UTC")
}

// ms formats a duration in milliseconds.
func ms(v float64) string {
	return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
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
