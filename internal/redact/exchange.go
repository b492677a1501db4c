package redact

import "github.com/mcptrail/mcptrail/internal/capture"

// exchange redacts an exchange or tunnel record (the forward proxy's OAuth
// requests, a document off the MCP endpoint): its bodies as frame
// payloads of their direction (key and path rules on JSON, the text rules
// on anything else), its URL and error as text, its headers as an
// envelope's. The record gets its own copy of the exchange when something
// changes: the one it had may be shared.
func (r *rules) exchange(rec *capture.Record) bool {
	if rec.Exchange == nil {
		return false
	}
	x := *rec.Exchange
	changed := false
	for _, b := range []struct {
		s   *string
		dir capture.Dir
	}{{&x.ReqBody, capture.C2S}, {&x.RespBody, capture.S2C}} {
		if *b.s == "" {
			continue
		}
		if out, c := r.Line(capture.TypeFrame, b.dir, []byte(*b.s)); c {
			*b.s, changed = string(out), true
		}
	}
	for _, s := range []*string{&x.URL, &x.Error} {
		if *s == "" {
			continue
		}
		if out, c := r.text(*s, true); c {
			*s, changed = out, true
		}
	}
	for _, h := range []*map[string]string{&x.ReqHeaders, &x.RespHeaders} {
		env := capture.HTTP{Headers: *h}
		if r.headers(&env) {
			*h, changed = env.Headers, true
		}
	}
	if changed {
		rec.Exchange = &x
	}
	return changed
}
