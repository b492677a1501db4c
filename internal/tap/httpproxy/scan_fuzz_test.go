package httpproxy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzJSONScan: where a body is cut into chunks does not change whether
// the scan finds its first object or array complete; a body that is one
// valid JSON object or array, alone or followed by anything, is always
// found complete, and never before its last byte.
func FuzzJSONScan(f *testing.F) {
	for _, s := range []string{`{"a":1}`, ` [{"a":[1]},{}]`, `{"a":"\"}"}`, `42`, `{"a":{}`, "\xff{}", `{"a":"\\"}x`} {
		f.Add([]byte(s), uint16(1))
	}
	f.Fuzz(func(t *testing.T, body []byte, cut uint16) {
		var whole jsonScan
		want := whole.feed(body)
		k := int(cut) % (len(body) + 1)
		var split jsonScan
		if got := split.feed(body[:k]) || split.feed(body[k:]); got != want {
			t.Fatalf("cut at %d: complete %v, whole %v", k, got, want)
		}
		var bytewise jsonScan
		at := -1
		for i := range body {
			if bytewise.feed(body[i : i+1]) {
				at = i
				break
			}
		}
		if (at >= 0) != want {
			t.Fatalf("byte by byte complete at %d, whole %v", at, want)
		}
		trimmed := bytes.TrimRight(body, " \t\r\n")
		if len(trimmed) > 0 && (trimmed[len(trimmed)-1] == '}' || trimmed[len(trimmed)-1] == ']') && json.Valid(trimmed) {
			if !want || at != len(trimmed)-1 {
				t.Fatalf("valid %q: complete %v at %d, want at its last byte %d", trimmed, want, at, len(trimmed)-1)
			}
		}
	})
}

// sseEvent is one dispatched event: its data, the last event id and its
// type ("" when it named none).
type sseEvent struct{ Data, ID, Event string }

// refSSE parses a whole text/event-stream the way the WHATWG HTML
// standard's "interpreting an event stream" says, keeping the events the
// tap records (those whose data is not empty), with the type the event's
// last "event:" field gave it (the type buffer, reset at every dispatch).
func refSSE(b []byte) []sseEvent {
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	var out []sseEvent
	var data []byte
	hasData := false
	id, event := "", ""
	for {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			return out // an unfinished line is never processed
		}
		line := b[:i]
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
		switch {
		case len(line) == 0:
			if hasData && len(data) > 0 {
				out = append(out, sseEvent{string(data), id, event})
			}
			data, hasData, event = nil, false, ""
			continue
		case line[0] == ':':
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if found {
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data, hasData = append(data, value...), true
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				id = string(value)
			}
		case "event":
			event = string(value)
		}
	}
}

// FuzzSSEParser: the incremental parser dispatches the events the
// standard's rules give for the whole stream, with their ids and types,
// however the stream is cut into reads.
func FuzzSSEParser(f *testing.F) {
	for _, s := range []string{
		"data: {\"a\":1}\n\n", "data: x\r\n\r\ndata: y\r\n\r\n", "data:x\r\rdata:y\r\r",
		"event: message\nid: 4\ndata: a\ndata: b\n\n", "id: 1\ndata:\n\n: keep-alive\n\ndata: z\n\n",
		"\uFEFFdata: bom\n\n", "id: a\x00b\ndata: nul\n\n", "data\n\ndata:\ndata:\n\n",
		"event: endpoint\ndata: /messages?sessionId=1\n\ndata: {}\n\n", "event:endpoint\r\nevent: x\r\ndata: y\r\n\r\n",
		"event: lost\n\ndata: after an empty event\n\n", "event\ndata: z\n\n", "event: \xff\ndata: w\n\n",
	} {
		f.Add([]byte(s), uint16(3))
	}
	f.Fuzz(func(t *testing.T, stream []byte, cut uint16) {
		want := refSSE(stream)
		run := func(chunks ...[]byte) []sseEvent {
			var p sseParser
			var got []sseEvent
			for _, c := range chunks {
				p.feed(c, func(d []byte, id, event string) { got = append(got, sseEvent{string(d), id, event}) })
			}
			return got
		}
		k := int(cut) % (len(stream) + 1)
		if diff := cmp.Diff(want, run(stream)); diff != "" {
			t.Fatalf("whole stream %q: events (-standard +parser):\n%s", stream, diff)
		}
		if diff := cmp.Diff(want, run(stream[:k], stream[k:])); diff != "" {
			t.Fatalf("stream %q cut at %d: events (-standard +parser):\n%s", stream, k, diff)
		}
		var bytewise [][]byte
		for i := range stream {
			bytewise = append(bytewise, stream[i:i+1])
		}
		if diff := cmp.Diff(want, run(bytewise...)); diff != "" {
			t.Fatalf("stream %q byte by byte: events (-standard +parser):\n%s", stream, diff)
		}
	})
}
