package store

import (
	"strconv"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// FieldRules is one property a form asked for, with the validation rules
// its subschema declares. Nil pointers and zero values mean "not
// declared"; Choices counts enum (or oneOf/anyOf) choices, never lists
// them, and defaults and examples are never kept.
type FieldRules struct {
	Name      string
	Type      string
	Required  bool
	Format    string
	MinLength *int64
	MaxLength *int64
	Minimum   *float64
	Maximum   *float64
	Choices   int
}

// fieldRules reads a requested schema's properties with their rules, in
// wire order; nil when the schema has none.
func fieldRules(schema []byte) []FieldRules {
	var required []string
	wire.EachElement(member(schema, "required"), func(v []byte) {
		if len(v) > 0 && v[0] == '"' {
			required = append(required, unquoted(v))
		}
	})
	var out []FieldRules
	wire.EachMember(member(schema, "properties"), func(name, sub []byte) bool {
		f := FieldRules{Name: unquoted(name), Type: mcp.FieldUnknown}
		for _, r := range required {
			f.Required = f.Required || r == f.Name
		}
		if t := stringMember(sub, "type"); t != "" {
			f.Type = t
		}
		f.Format = stringMember(sub, "format")
		f.MinLength, f.MaxLength = intMember(sub, "minLength"), intMember(sub, "maxLength")
		f.Minimum, f.Maximum = numberMember(sub, "minimum"), numberMember(sub, "maximum")
		f.Choices = choices(sub)
		if f.Choices == 0 {
			f.Choices = choices(member(sub, "items"))
		}
		out = append(out, f)
		return true
	})
	return out
}

// choices counts the enum, oneOf or anyOf entries of a subschema.
func choices(sub []byte) int {
	for _, k := range []string{"enum", "oneOf", "anyOf"} {
		n := 0
		if wire.EachElement(member(sub, k), func([]byte) { n++ }) {
			return n
		}
	}
	return 0
}

func intMember(v []byte, name string) *int64 {
	raw := member(v, name)
	if len(raw) == 0 {
		return nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(raw), 64)
		if ferr != nil {
			return nil
		}
		n = int64(f)
	}
	return &n
}

func numberMember(v []byte, name string) *float64 {
	raw := member(v, name)
	if len(raw) == 0 {
		return nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil
	}
	return &f
}

// eventLog builds the snapshot's EventLog from the logged changes,
// pointing into the snapshot's calls, operations and (sorted) ledger.
func (s *Store) eventLog(calls *Calls, ops []Operation, ledger []LedgerRow) *EventLog {
	ev := s.ev
	if ev == nil || ev.opts.OnChange != nil {
		return nil
	}
	rowAt := s.rowPositions(ledger)
	out := &EventLog{Changes: make([]Change, len(ev.log))}
	for i, rec := range ev.log {
		ch := &out.Changes[i]
		*ch = Change{Kind: rec.kind, Ordinal: i + 1, Seq: rec.seq, Client: rec.client, Server: rec.server}
		if rec.kind == ChangeOperation {
			ch.Call = calls.ref(rec.call)
			ch.Root = ch.Call
			if op := ch.Call.Operation; op >= 0 && op < len(ops) {
				ch.Operation = &ops[op]
				ch.Root = calls.ref(ops[op].Root)
			}
			ch.Result = ev.results[rec.call]
			if p, ok := ev.root(ch.Root.Index); ok {
				ch.Params, ch.TraceParent, ch.TraceState, ch.HTTPSession = p.params, p.traceParent, p.traceState, p.httpSession
			}
			continue
		}
		x := &ev.rows[rec.row]
		ch.Row = &ledger[rowAt[rec.row]]
		if c := ch.Row.Call; c >= 0 && c < calls.Len() {
			ch.Call = calls.ref(c)
		}
		if c := ch.Row.Root.Call; c >= 0 && c < calls.Len() {
			ch.Root = calls.ref(c)
		}
		ch.Fields = x.fields
		if rec.kind == ChangeAnswered {
			ch.AnswerFields, ch.Answer = x.answerFields, x.answer
		}
	}
	return out
}

// rowPositions maps each row's insertion index to its index in the sorted
// ledger. The sort is stable by AskedSeq, so rows sharing (seq, call, key)
// keep their relative order.
func (s *Store) rowPositions(ledger []LedgerRow) []int {
	byKey := make(map[rowKey][]int, len(ledger))
	for i := range ledger {
		k := rowKey{seq: ledger[i].AskedSeq, call: ledger[i].Call, key: ledger[i].Key}
		byKey[k] = append(byKey[k], i)
	}
	out := make([]int, len(s.ev.rows))
	for i := range s.ev.rows {
		k := s.ev.rows[i].key
		if len(byKey[k]) == 0 {
			out[i] = min(i, len(ledger)-1)
			continue
		}
		out[i] = byKey[k][0]
		byKey[k] = byKey[k][1:]
	}
	return out
}
