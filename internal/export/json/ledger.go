package jsonexport

import (
	"bytes"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/store"
)

// appendLedger writes the elicitations member (with its leading comma)
// when the session asked anything; a session without elicitation adds
// nothing, so its export is byte-identical to one made before the ledger.
func appendLedger(b []byte, rows []store.LedgerRow) []byte {
	if len(rows) == 0 {
		return b
	}
	b = append(b, ",\n\"elicitations\":["...)
	for i := range rows {
		b = appendSep(b, i)
		b = AppendLedgerRow(b, "", &rows[i])
	}
	return appendEnd(b, len(rows), "]")
}

// appendLedgerSummary adds summary.elicitations to the summary object that
// ends b, when there are rows: counts by mode, action and status.
func appendLedgerSummary(b []byte, rows []store.LedgerRow) []byte {
	if len(rows) == 0 || !bytes.HasSuffix(b, []byte("}")) {
		return b
	}
	b = b[:len(b)-1]
	c := store.CountLedger(rows)
	b = append(b, `,"elicitations":`...)
	o := openObject(b)
	o.key("mode")
	o.b = appendCounts(o.b, c.Modes)
	o.key("action")
	o.b = appendCounts(o.b, c.Actions)
	o.key("status")
	o.b = appendCounts(o.b, c.Statuses)
	return append(o.close(), '}')
}

// appendCounts writes counts as an object from name to count; names come
// from the wire, so unlike keys they are quoted with escaping.
func appendCounts(b []byte, counts []store.Count) []byte {
	b = append(b, '{')
	for i, c := range counts {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, c.Name)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(c.N), 10)
	}
	return append(b, '}')
}

// AppendLedgerRow appends one ledger row as a JSON object (the shape is
// documented in docs/export-json.md, "elicitations[]"). A non-empty session
// is written first as a "session" member, for listings across sessions.
// No member ever holds a value from an answer's content: the row has none.
func AppendLedgerRow(b []byte, session string, r *store.LedgerRow) []byte {
	o := openObject(b)
	if session != "" {
		o.str("session", session)
	}
	o.key("root")
	if r.Root.Call < 0 {
		o.b = append(o.b, "null"...)
	} else {
		root := openObject(o.b)
		root.id("id", r.Root.ID)
		root.str("method", r.Root.Method)
		root.strOpt("target", r.Root.Target)
		o.b = root.close()
	}
	if r.Round > 0 {
		o.int("round", int64(r.Round))
	}
	o.id("request_id", r.RequestID)
	if r.Era == store.LedgerMRTR {
		o.str("key", r.Key)
	} else {
		o.raw("key", []byte("null"))
	}
	o.str("era", r.Era)
	o.str("mode", r.Mode)
	o.str("message", r.Message)
	if r.Fields != nil {
		o.array("fields", len(r.Fields), func(b []byte, i int) []byte { return appendField(b, &r.Fields[i]) })
	}
	o.strOpt("url", r.URL)
	o.strOpt("host", r.Host)
	o.strOpt("elicitation_id", r.ElicitationID)
	o.strOpt("resource", r.Resource)
	o.strOpt("action", r.Action)
	o.str("status", r.Status)
	o.time("asked_at", r.AskedAt)
	o.timeOpt("answered_at", r.AnsweredAt)
	o.timeOpt("completed_at", r.CompletedAt)
	if r.AnsweredSeq != 0 {
		o.ms("elapsed_ms", r.ElapsedMS)
	}
	o.uint("asked_seq", r.AskedSeq)
	o.uintOpt("answered_seq", r.AnsweredSeq)
	if r.Observations != nil {
		o.strings("observations", r.Observations)
	} else {
		o.raw("observations", []byte("[]"))
	}
	return o.close()
}

func appendField(b []byte, field *store.LedgerField) []byte {
	f := openObject(b)
	f.str("name", field.Name)
	f.str("type", field.Type)
	f.bool("required", field.Required)
	if field.Options != nil {
		f.strings("options", field.Options)
	}
	return f.close()
}
