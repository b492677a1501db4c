package diff

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/units"
)

// maxArgs is how much of a call's canonical arguments the text shows.
const maxArgs = 80

// WriteText writes r for a terminal: a header naming both sessions, then
// one section per kind of difference, each line escaped for terminals;
// "no differences" when nothing differs.
func (r *Report) WriteText(w io.Writer) error { return r.WriteTextColor(w, false) }

// WriteTextColor is WriteText with, when color is true, what changed
// coloured as mcptrail's tables colour it: errors that appeared, calls
// only in A and new findings red; calls only in B and slower ones yellow;
// errors and findings gone, and "no differences", green.
func (r *Report) WriteTextColor(w io.Writer, color bool) error {
	bw := bufio.NewWriter(w)
	p := printer{w: bw, color: color}
	p.line(0, "A %s  B %s", side(&r.A), side(&r.B))
	p.catalog(r.Catalog)
	p.calls(&r.Calls)
	p.ledger(r.Ledger)
	p.findings(&r.Findings)
	p.latency(r.Latency)
	if !r.Differs() {
		p.styled(0, termtable.Good, "no differences")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the diff: %w", err)
	}
	return nil
}

// printer writes indented, escaped lines, coloured when color is true.
type printer struct {
	w     io.Writer
	color bool
}

func (p *printer) line(indent int, format string, args ...any) {
	p.styled(indent, termtable.Plain, format, args...)
}

// styled writes a line in the colour s.
func (p *printer) styled(indent int, s termtable.Style, format string, args ...any) {
	fmt.Fprintf(p.w, "%s%s\n", strings.Repeat("  ", indent), s.Paint(termtext.Escape(fmt.Sprintf(format, args...)), p.color))
}

func side(s *Side) string {
	out := s.Session
	if s.Label != "" {
		out += " (" + s.Label + ")"
	}
	return out + ", " + plural(s.Calls, "call")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func (p *printer) catalog(ds []CatalogDelta) {
	if len(ds) == 0 {
		return
	}
	p.line(0, "catalog: %s", plural(len(ds), "definition")+" differ")
	for _, d := range ds {
		switch d.Change {
		case "changed":
			p.line(1, "%s %s changed (%s -> %s)", d.Kind, d.Key, short(d.OldHash), short(d.NewHash))
			for _, c := range d.Drift {
				p.line(2, "%s: %s", c.Kind, c.Message())
			}
		default:
			p.line(1, "%s %s %s", d.Kind, d.Key, d.Change)
		}
	}
}

// short abbreviates a definition hash.
func short(h string) string { return h[:min(len(h), 12)] }

func (p *printer) calls(c *Calls) {
	p.line(0, "calls: %d matched (%d MRTR), %d changed, %d only in A, %d only in B, %d slower",
		c.Matched, c.Operations, len(c.Changed), len(c.OnlyA), len(c.OnlyB), len(c.Slower))
	for i := range c.Changed {
		p.callDelta(&c.Changed[i])
	}
	for _, ref := range c.OnlyA {
		p.styled(1, termtable.Bad, "only in A: %s", callName(&ref))
	}
	for _, ref := range c.OnlyB {
		p.styled(1, termtable.Warn, "only in B: %s", callName(&ref))
	}
	for _, s := range c.Slower {
		p.styled(1, termtable.Warn, "slower: %s %s -> %s", callName(&s.CallRef), ms(s.OldMS), ms(s.NewMS))
	}
}

func (p *printer) callDelta(d *CallDelta) {
	p.line(1, "%s", callName(&d.CallRef))
	switch d.Error {
	case ErrorAppeared:
		p.styled(2, termtable.Bad, "error appeared: %s", d.NewError)
	case ErrorGone:
		p.styled(2, termtable.Good, "error gone (was %s)", d.OldError)
	case ErrorChanged:
		p.styled(2, termtable.Bad, "error changed: %s -> %s", d.OldError, d.NewError)
	}
	if d.Error == "" && d.OldStatus != d.NewStatus {
		p.line(2, "status %s -> %s", d.OldStatus, d.NewStatus)
	}
	if d.OldRounds != d.NewRounds {
		p.line(2, "rounds %d -> %d", d.OldRounds, d.NewRounds)
	}
	for _, r := range d.Result {
		path := r.Path
		if path == "" {
			path = "(whole result)"
		}
		switch r.Op {
		case OpAdded:
			p.line(2, "result %s added: %s", path, r.New)
		case OpRemoved:
			p.line(2, "result %s removed: %s", path, r.Old)
		default:
			p.line(2, "result %s changed: %s -> %s", path, r.Old, r.New)
		}
	}
}

// callName is "method[target] arguments", the arguments shortened.
func callName(r *CallRef) string {
	out := r.Method
	if r.Target != "" {
		out += "[" + r.Target + "]"
	}
	if r.Arguments != "" && r.Arguments != "{}" {
		args := r.Arguments
		if len(args) > maxArgs {
			args = strings.ToValidUTF8(args[:maxArgs], "") + "..."
		}
		out += " " + args
	}
	return out
}

// ms formats a duration in milliseconds for reading, as every view of
// mcptrail does (units.Millis: "0.42ms", "47.5ms", "2.84s").
func ms(v float64) string { return units.Millis(v) }

func (p *printer) ledger(qs []QuestionDelta) {
	if len(qs) == 0 {
		return
	}
	p.line(0, "ledger: %s", plural(len(qs), "question")+" differ")
	for _, q := range qs {
		name := q.Method
		if q.Target != "" {
			name += "[" + q.Target + "]"
		}
		if q.Key != "" {
			name += " key " + strconv.Quote(q.Key)
		}
		p.line(1, "%s %s: %s", name, q.Change, strconv.Quote(q.Message))
		for _, c := range q.Changes {
			p.line(2, "%s", change(&c))
		}
	}
}

func change(c *Change) string {
	what := c.What
	if c.Field != "" {
		what += " " + c.Field
	}
	switch {
	case c.Old == "":
		return what + ": " + strconv.Quote(c.New)
	case c.New == "":
		return what + ": was " + strconv.Quote(c.Old)
	}
	return what + ": " + strconv.Quote(c.Old) + " -> " + strconv.Quote(c.New)
}

func (p *printer) findings(f *Findings) {
	if len(f.New)+len(f.Gone) == 0 {
		return
	}
	p.line(0, "findings: %d new, %d gone", len(f.New), len(f.Gone))
	for _, x := range f.New {
		p.styled(1, termtable.Bad, "new: %s", findingText(&x))
	}
	for _, x := range f.Gone {
		p.styled(1, termtable.Good, "gone: %s", findingText(&x))
	}
}

func findingText(f *FindingRef) string {
	out := f.Rule
	if f.Severity != "" {
		out = f.Severity + " " + out
	}
	if f.Method != "" {
		out += " " + f.Method
		if f.Target != "" {
			out += "[" + f.Target + "]"
		}
	}
	return out + ": " + f.Message
}

// latency lists the p50s that grew by the --slower-than factor, the only
// latency rows that count as a difference (Report.Differs); a p50 that
// shrank, or grew by less, is left out, as a call that got faster is (the
// JSON report keeps every changed p50 with its slower flag).
func (p *printer) latency(ls []Latency) {
	n := 0
	for _, l := range ls {
		if l.Slower {
			n++
		}
	}
	if n == 0 {
		return
	}
	p.line(0, "latency (p50):")
	for _, l := range ls {
		if l.Slower {
			p.styled(1, termtable.Warn, "%s %s %s -> %s slower", l.Group, l.Name, ms(l.OldMS), ms(l.NewMS))
		}
	}
}
