package htmlexport

import (
	"io"
	"math"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The report-data block is one JSON object (docs/export-html.md tells its
// members): the filter language, every call as an array, the operations,
// and per call the ledger outcomes and finding rules the filter matches.
// Calls are written as arrays, not objects, to keep a 100k-call page small.

// Each element of "calls" is [dir, method, target, status, duration ms
// (-1 while unanswered), start ms from the session's start, raw id, era,
// late (0 or 1), parent call, error message, operation, round, request
// frame, response frame (frame indexes into frames-data, -1 for none)];
// report.js reads them by position (its C_* constants). dir, method,
// target, status and era are numbers into "names" (or, past maxNames
// distinct ones, strings).

// dataWriter appends JSON to a buffer and writes it out in chunks.
type dataWriter struct {
	w   io.Writer
	b   []byte
	err error
	// names numbers the strings written with name, up to maxNames of them
	// (the "names" member); list holds them in order.
	names map[string]int
	list  []string
}

// maxNames bounds the names table; past it, names are written as strings.
const maxNames = 1 << 16

// name writes s as its number in the names table, or as a string once the
// table is full: calls repeat a few methods, tools and statuses, and a
// number is shorter to write and to read.
func (d *dataWriter) name(s string) {
	n, ok := d.names[s]
	if !ok && len(d.list) < maxNames {
		if d.names == nil {
			d.names = make(map[string]int)
		}
		n, ok = len(d.list), true
		d.names[s] = n
		d.list = append(d.list, s)
	}
	if !ok {
		d.str(s)
		return
	}
	d.int(int64(n))
}

// flush writes the buffer out when it is large, or always when force.
func (d *dataWriter) flush(force bool) {
	if d.err != nil || (!force && len(d.b) < 32<<10) {
		return
	}
	_, d.err = d.w.Write(d.b)
	d.b = d.b[:0]
}

func (d *dataWriter) raw(s string) { d.b = append(d.b, s...) }
func (d *dataWriter) str(s string) { d.b = appendQuote(d.b, s) }
func (d *dataWriter) int(n int64)  { d.b = strconv.AppendInt(d.b, n, 10) }

// bit writes b as 1 or 0.
func (d *dataWriter) bit(b bool) {
	if b {
		d.b = append(d.b, '1')
	} else {
		d.b = append(d.b, '0')
	}
}
func (d *dataWriter) comma(i int) {
	if i > 0 {
		d.b = append(d.b, ',')
	}
}
func (d *dataWriter) num(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 0
	}
	d.b = strconv.AppendFloat(d.b, math.Round(f*1000)/1000, 'f', -1, 64)
}

func (d *dataWriter) strs(vs []string) {
	d.raw("[")
	for i, v := range vs {
		d.comma(i)
		d.str(v)
	}
	d.raw("]")
}

// writeData writes the report-data object of snap to w.
func (hw *Writer) writeData(w io.Writer, snap *store.Snapshot) error {
	d := &dataWriter{w: w}
	d.raw(`{"filter":`)
	writeFilterSpec(d)
	d.raw(",\n\"calls\":[\n")
	hw.writeCalls(d, snap)
	d.raw("],\n\"ops\":[")
	writeOps(d, snap)
	d.raw("],\n\"elicit\":[")
	writeElicit(d, snap)
	d.raw("],\n\"rules\":[")
	writeRules(d, snap)
	d.raw("],\n\"names\":")
	d.strs(d.list)
	d.raw("}")
	d.flush(true)
	return d.err
}

// writeFilterSpec writes the "filter" member: the language's keys and the
// values of its enum keys, from filter.Spec, the one definition the page's
// script (assets/filter.js) parses against.
func writeFilterSpec(d *dataWriter) {
	d.raw(`{"keys":`)
	d.strs(filter.Keys())
	d.raw(`,"enums":{`)
	n := 0
	for _, k := range filter.Spec() {
		if k.Kind == filter.KindEnum {
			d.comma(n)
			n++
			d.str(k.Name)
			d.raw(":")
			d.strs(k.Values)
		}
	}
	d.raw("}}")
}

// writeCalls writes one array per call, the members of callFields.
func (hw *Writer) writeCalls(d *dataWriter, snap *store.Snapshot) {
	t0 := snap.Session.Start
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		if i > 0 {
			d.raw(",\n")
		}
		d.raw("[")
		d.name(string(c.Dir))
		d.raw(",")
		d.name(c.Method)
		d.raw(",")
		d.name(c.Target)
		d.raw(",")
		d.name(c.Status)
		d.raw(",")
		if c.ResponseSeq == 0 {
			d.raw("-1")
		} else {
			d.num(c.DurationMS)
		}
		d.raw(",")
		start := 0.0
		if !t0.IsZero() && !c.Start.IsZero() {
			start = float64(c.Start.Sub(t0).Microseconds()) / 1000
		}
		d.num(start)
		d.raw(",")
		d.str(c.ID.Raw())
		d.raw(",")
		d.name(c.Era)
		d.raw(",")
		d.bit(c.Late)
		d.raw(",")
		d.int(int64(c.Parent))
		d.raw(",")
		if c.Error != nil {
			d.str(c.Error.Message)
		} else {
			d.raw(`""`)
		}
		d.raw(",")
		d.int(int64(c.Operation))
		d.raw(",")
		d.int(int64(c.Round))
		d.raw(",")
		d.int(int64(hw.line(c.RequestSeq)))
		d.raw(",")
		d.int(int64(hw.line(c.ResponseSeq)))
		d.raw("]")
		d.flush(false)
	}
}

// writeOps writes one array per operation: root call, status, duration,
// wait and tool time in ms, whether it ended, its rounds' calls, and for a
// task (ext-tasks) its taskId, latest task status and polls (tasks/get),
// else null.
func writeOps(d *dataWriter, snap *store.Snapshot) {
	for i, op := range snap.Operations.All() {
		d.comma(i)
		d.raw("[")
		d.int(int64(op.Root))
		d.raw(",")
		d.str(op.Status)
		d.raw(",")
		d.num(op.DurationMS)
		d.raw(",")
		d.num(op.WaitMS)
		d.raw(",")
		d.num(op.ToolMS)
		d.raw(",")
		d.bit(!op.End.IsZero())
		d.raw(",[")
		for j, r := range op.Rounds {
			d.comma(j)
			d.int(int64(r.Call))
		}
		d.raw("],")
		if op.Task.ID == "" {
			d.raw("null")
		} else {
			d.raw("[")
			d.str(op.Task.ID)
			d.raw(",")
			d.str(op.Task.Status)
			d.raw(",")
			d.int(int64(op.Task.Polls))
			d.raw("]")
		}
		d.raw("]")
		d.flush(false)
	}
}

// outcome is what a ledger row shows and elicit: matches: the action of an
// answered row, else its status (pending, required, error), as in the TUI.
func outcome(r *store.LedgerRow) string {
	if r.Status == store.LedgerAnswered && r.Action != "" {
		return r.Action
	}
	return r.Status
}

// writeElicit writes, per ledger row, [root call, carrying call, outcome,
// mode, message]: the page derives what elicit: matches on each call and
// each ledger row from it.
func writeElicit(d *dataWriter, snap *store.Snapshot) {
	for i, r := range snap.Ledger.All() {
		d.comma(i)
		d.raw("[")
		d.int(int64(r.Root.Call))
		d.raw(",")
		d.int(int64(r.Call))
		d.raw(",")
		d.str(outcome(&r))
		d.raw(",")
		d.str(r.Mode)
		d.raw(",")
		d.str(r.Message)
		d.raw("]")
		d.flush(false)
	}
}

// writeRules writes [call, rule] for every finding that concerns a call.
func writeRules(d *dataWriter, snap *store.Snapshot) {
	n := 0
	for f := range snap.Findings.All() {
		if f.Call < 0 {
			continue
		}
		d.comma(n)
		n++
		d.raw("[")
		d.int(int64(f.Call))
		d.raw(",")
		d.str(f.Rule)
		d.raw("]")
		d.flush(false)
	}
}
