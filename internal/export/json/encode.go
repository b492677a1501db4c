package jsonexport

import (
	"encoding/base64"
	"maps"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// appendFrame encodes one frame: its correlation facts, then the message
// as raw JSON (msg), as text, or as base64 (b64) for bytes that are not
// UTF-8.
func appendFrame(b []byte, f *store.Frame) []byte {
	o := frameHead(b, f)
	if r := f.Record; r != nil {
		switch {
		case f.Kind == store.KindHTTPStatus && r.Text == "" && len(r.Msg) == 0 && r.B64 == nil:
			// No body: no payload member.
		case len(r.Msg) > 0:
			o.raw("msg", r.Msg)
		case r.B64 != nil:
			o.key("b64")
			o.b = append(o.b, '"')
			o.b = base64.StdEncoding.AppendEncode(o.b, r.B64)
			o.b = append(o.b, '"')
		default:
			o.str("text", r.Text)
		}
	}
	return o.close()
}

// frameHead encodes a frame's members before its payload, leaving the
// object open.
func frameHead(b []byte, f *store.Frame) object {
	o := openObject(b)
	o.uint("seq", f.Seq)
	o.time("time", f.Time)
	o.str("dir", string(f.Dir))
	o.str("kind", f.Kind.String())
	if !f.ID.IsZero() {
		o.id("id", f.ID)
	}
	o.strOpt("method", f.Method)
	o.int("size", int64(f.Size))
	o.strOpt("problem", f.Problem)
	if f.Call >= 0 {
		o.int("call", int64(f.Call))
	}
	if r := f.Record; r != nil && r.HTTP != nil {
		o.key("http")
		o.b = appendHTTP(o.b, r.HTTP)
	}
	return o
}

// appendHTTP encodes a frame's HTTP envelope: exchange, method, path,
// status (absent on requests) and headers, sorted by name.
func appendHTTP(b []byte, h *capture.HTTP) []byte {
	o := openObject(b)
	o.str("exchange", h.Exchange)
	o.strOpt("method", h.Method)
	o.strOpt("path", h.Path)
	if h.Status != 0 {
		o.int("status", int64(h.Status))
	}
	if len(h.Headers) > 0 {
		o.key("headers")
		o.b = append(o.b, '{')
		for i, k := range slices.Sorted(maps.Keys(h.Headers)) {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			o.b = append(appendString(o.b, k), ':')
			o.b = appendString(o.b, h.Headers[k])
		}
		o.b = append(o.b, '}')
	}
	return o.close()
}

func appendSession(b []byte, s *store.Session) []byte {
	o := openObject(b)
	o.str("id", s.ID)
	o.str("label", s.Label)
	o.str("transport", s.Transport)
	if s.SSE.Seq != 0 {
		o.key("http_sse")
		x := openObject(o.b)
		x.int("seq", int64(s.SSE.Seq))
		x.strOpt("endpoint", s.SSE.Endpoint)
		o.b = x.close()
	}
	if len(s.Command) > 0 {
		o.strings("command", s.Command)
	}
	o.strOpt("target", s.Target)
	o.strOpt("tool_version", s.ToolVersion)
	o.int("format", int64(s.Format))
	o.time("start", s.Start)
	o.timeOpt("end", s.End)
	o.bool("ended", s.Ended)
	if s.Exit != nil {
		o.int("exit", int64(*s.Exit))
	}
	o.strOpt("signal", s.Signal)
	o.strings("eras", s.Eras)
	o.strings("protocol_versions", s.ProtocolVersions)

	o.key("client")
	c := openObject(o.b)
	c.str("name", s.Client.Name)
	c.str("version", s.Client.Version)
	c.key("elicitation")
	e := openObject(c.b)
	e.bool("form", s.Client.ElicitForm)
	e.bool("url", s.Client.ElicitURL)
	c.b = e.close()
	o.b = c.close()

	o.key("server")
	sv := openObject(o.b)
	sv.str("name", s.Server.Name)
	sv.str("version", s.Server.Version)
	o.b = sv.close()

	o.key("damage")
	d := openObject(o.b)
	d.bool("torn", s.Damage.Torn)
	d.int("torn_bytes", s.Damage.TornBytes)
	d.int("corrupt", int64(s.Damage.Corrupt))
	o.b = d.close()

	o.int("lost_frames", s.LostFrames)
	o.int("lost_bytes", s.LostBytes)
	if s.Redacted {
		o.bool("redacted", true)
	}
	return o.close()
}

func appendCall(b []byte, c *store.Call) []byte {
	o := openObject(b)
	o.int("index", int64(c.Index))
	o.str("dir", string(c.Dir))
	o.id("id", c.ID)
	o.str("method", c.Method)
	o.strOpt("target", c.Target)
	o.strOpt("era", c.Era)
	o.strOpt("protocol_version", c.ProtocolVersion)
	o.uint("request_seq", c.RequestSeq)
	o.uintOpt("response_seq", c.ResponseSeq)
	o.time("start", c.Start)
	if c.ResponseSeq != 0 {
		o.timeOpt("end", c.End)
		o.ms("duration_ms", c.DurationMS)
	}
	o.str("status", c.Status)
	o.strOpt("result_type", c.ResultType)
	if c.Error != nil {
		o.key("error")
		e := openObject(o.b)
		e.int("code", c.Error.Code)
		e.str("message", c.Error.Message)
		o.b = e.close()
	}
	o.uintOpt("cancel_seq", c.CancelSeq)
	if c.Late {
		o.bool("late", true)
	}
	if c.Operation >= 0 {
		o.int("operation", int64(c.Operation))
		o.int("round", int64(c.Round))
	}
	if c.Parent >= 0 {
		o.int("parent", int64(c.Parent))
	}
	o.strOpt("attribution", c.Attribution)
	return o.close()
}

func appendOperation(b []byte, op *store.Operation) []byte {
	o := openObject(b)
	o.int("index", int64(op.Index))
	o.str("method", op.Method)
	o.strOpt("target", op.Target)
	o.int("root", int64(op.Root))
	o.id("root_id", op.RootID)
	o.str("status", op.Status)
	o.time("start", op.Start)
	o.timeOpt("end", op.End)
	o.ms("duration_ms", op.DurationMS)
	o.ms("wait_ms", op.WaitMS)
	o.ms("tool_ms", op.ToolMS)
	if t := &op.Task; t.ID != "" {
		o.key("task")
		k := openObject(o.b)
		k.str("id", t.ID)
		k.str("status", t.Status)
		k.int("polls", int64(t.Polls))
		k.int("updates", int64(t.Updates))
		k.int("cancels", int64(t.Cancels))
		k.int("notifications", int64(t.Notifications))
		if t.PollIntervalMS > 0 {
			k.int("poll_interval_ms", t.PollIntervalMS)
		}
		k.uintOpt("terminal_seq", t.TerminalSeq)
		o.b = k.close()
	}
	o.array("rounds", len(op.Rounds), func(b []byte, i int) []byte { return appendRound(b, &op.Rounds[i]) })
	return o.close()
}

func appendRound(b []byte, r *store.Round) []byte {
	o := openObject(b)
	o.int("call", int64(r.Call))
	o.id("id", r.ID)
	o.str("pairing", r.Pairing)
	o.array("input_requests", len(r.InputRequests), func(b []byte, i int) []byte {
		q := openObject(b)
		q.str("key", r.InputRequests[i].Key)
		q.str("method", r.InputRequests[i].Method)
		return q.close()
	})
	o.bool("has_state", r.HasState)
	return o.close()
}

func appendSummary(b []byte, s *store.Summary, c *store.Counts) []byte {
	o := openObject(b)
	o.key("counts")
	n := openObject(o.b)
	n.int("records", int64(c.Records))
	n.int("frames", int64(c.Frames))
	n.int("c2s", int64(c.C2S))
	n.int("s2c", int64(c.S2C))
	n.int("bytes", c.Bytes)
	n.int("invalid", int64(c.Invalid))
	n.int("notifications", int64(c.Notifications))
	n.int("stderr", int64(c.Stderr))
	n.int("notes", int64(c.Notes))
	o.b = n.close()
	o.key("methods")
	o.b = appendStats(o.b, s.Methods)
	o.key("tools")
	o.b = appendStats(o.b, s.Tools)
	o.key("server_requests")
	o.b = appendStats(o.b, s.Server)
	return o.close()
}

func appendStats(b []byte, stats []store.Stat) []byte {
	b = append(b, '[')
	for i := range stats {
		st := &stats[i]
		b = appendSep(b, i)
		o := openObject(b)
		o.str("name", st.Name)
		o.int("count", int64(st.Count))
		o.int("rounds", int64(st.Rounds))
		o.int("errors", int64(st.Errors))
		o.ms("p50_ms", st.P50MS)
		o.ms("p95_ms", st.P95MS)
		o.ms("p99_ms", st.P99MS)
		b = o.close()
	}
	if len(stats) > 0 {
		b = append(b, '\n')
	}
	return append(b, ']')
}

func appendFinding(b []byte, f *finding.Finding) []byte {
	o := openObject(b)
	o.str("rule", f.Rule)
	o.str("severity", string(f.Severity))
	o.uint("seq", f.Seq)
	if f.Call >= 0 {
		o.int("call", int64(f.Call))
	}
	if f.Line > 0 {
		o.int("line", int64(f.Line))
	}
	o.str("message", f.Message)
	return o.close()
}
