package mcpserve

import (
	"context"
	stdjson "encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/filter"
)

// tool is one tool: its definition and what builds its answer from the
// call's raw arguments.
type tool struct {
	tool *mcp.Tool
	run  func(raw []byte) (*page, error)
	// wait, when set instead of run, builds the answer of a tool that
	// waits (tail): it is called without the server's lock, which it
	// takes itself to read, and ends with the call's context.
	wait func(ctx context.Context, raw []byte) (*page, error)
}

// handler serves t: one call at a time, its answer fitted to the budget;
// bad arguments and unknown sessions are tool errors the agent reads.
func (s *Server) handler(t tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p *page
		var err error
		if t.wait != nil {
			p, err = t.wait(ctx, req.Params.Arguments)
		} else {
			s.mu.Lock()
			p, err = t.run(req.Params.Arguments)
			s.mu.Unlock()
		}
		if err != nil {
			return toolError(err), nil
		}
		res, err := answer(p, s.opts.MaxAnswer)
		if err != nil {
			return toolError(err), nil
		}
		return res, nil
	}
}

// readOnly are the annotations of every tool: nothing is changed, the
// same call answers the same while the captures stay, and nothing
// outside the state directory is read.
func readOnly(title string) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
}

func (s *Server) tools() []tool {
	return []tool{
		{tool: &mcp.Tool{Name: "sessions", Annotations: readOnly("List captured sessions"), Description: "List the captured MCP sessions, newest first, " +
			"from mcptrail's session index: id, label, transport, start, frames, the client's calls (an MRTR operation once), " +
			"the server's requests to the client apart, failed calls, questions asked, and whether the capture ended. " +
			"Filters: label, since (an age such as 7d or 12h, or a date), transport (stdio, http), with_elicitations.",
			InputSchema: schema(sessionsIn), OutputSchema: schema(sessionsOut)}, run: s.sessions},
		{tool: &mcp.Tool{Name: "session_summary", Annotations: readOnly("Summarize a session"), Description: "The first thing to read about a session: " +
			"its header (peers, protocol, transport, damage), counts as mcptrail counts them (requests, calls with an MRTR operation once, " +
			"more rounds, server requests apart), the failed calls, the slowest calls, the elicitation ledger's counts and the findings by severity and rule.",
			InputSchema: schema(sessionIn), OutputSchema: schema(summaryOut)}, run: s.sessionSummary},
		{tool: &mcp.Tool{Name: "calls", Annotations: readOnly("Find calls"), Description: "The requests of a session, either way, in capture order, " +
			"that a filter matches, one line each: method, target, status, duration, error, id, seqs, MRTR operation and round, " +
			"the call a server request interrupted, the rules its findings raised; an MRTR round is a row of its own. " +
			"The filter is the TUI's language (docs/filter.md): space-separated terms, all must match, a leading ! negates one, " +
			"free text matches the method, target or error message; its keys: " + filterKeys() + ".",
			InputSchema: schema(callsIn), OutputSchema: schema(callsOut)}, run: s.calls},
		{tool: &mcp.Tool{Name: "call", Annotations: readOnly("Show a call's frames"), Description: "One request of a session (its index in the calls tool) " +
			"with its frames: the request, its answer, a notifications/cancelled naming it; each with its capture seq and line, direction, time, size " +
			"and message as JSON (long strings cut with their size; the text form pretty-prints it) and uri, the frame resource that holds it whole. " +
			"The values of an elicitation answer are replaced: a frame does not show what the user submitted (unless the operator started " +
			"mcptrail mcp with --reveal-answers).",
			InputSchema: schema(callIn), OutputSchema: schema(callOut)}, run: s.callFrames},
		{tool: &mcp.Tool{Name: "ledger", Annotations: readOnly("Elicitation ledger"), Description: "The elicitation ledger of a session: " +
			"every question the server put to the user (MRTR input requests and legacy elicitation/create), with the call it belongs to, " +
			"its mode, message, form fields or url host, the user's action and how long they took. Rows are those of `mcptrail ledger --json`; " +
			"a row never carries a value the user submitted.",
			InputSchema: schema(pageIn), OutputSchema: schema(ledgerOut)}, run: s.ledger},
		{tool: &mcp.Tool{Name: "check", Annotations: readOnly("Check a session"), Description: "The findings of a session under the user's [rules] " +
			"(what `mcptrail check -T json` reports as its items): rule, severity, capture seq and line, call, message and fingerprint, " +
			"with the help and spec section of every rule raised.",
			InputSchema: schema(pageIn), OutputSchema: schema(checkOut)}, run: s.findings},
		{tool: &mcp.Tool{Name: "diff", Annotations: readOnly("Compare two sessions"), Description: "Session a (the older) compared with session b, " +
			"as `mcptrail diff --json a b` reports it: whether they differ, the calls matched, then the changes section by section, each element as " +
			"diff --json writes it: catalog (definitions added, removed, changed, with their drift), calls.changed (a matched call whose status, error or " +
			"result members changed), calls.only_a and calls.only_b, calls.slower, ledger (questions added, removed, reworded or answered differently; " +
			"never a value), findings.new and findings.gone, latency (p50s). slower_than is diff's --slower-than (2x by default, 0: no durations); " +
			"ignore lists JSON Pointers of result members not compared.",
			InputSchema: schema(diffIn), OutputSchema: schema(diffOut)}, run: s.diffSessions},
		{tool: &mcp.Tool{Name: "tools", Annotations: readOnly("Show a session's tool catalog"), Description: "The tools a session's server listed " +
			"in its latest tools/list, each as `mcptrail tools --json` writes it: name, title, description, annotations, arguments, schemas, " +
			"definition hash; list skills or apps lists its skills or app tools (a tool naming a ui:// resource) instead. " +
			"With baseline (another session), the drift from that session's catalog instead, one change a row, as the drift " +
			"rules of `mcptrail check --tools-baseline` name it: tool-added, tool-removed, tool-description-changed, tool-schema-loosened, " +
			"tool-schema-tightened, tool-annotations-changed.",
			InputSchema: schema(toolsIn), OutputSchema: schema(toolsOut)}, run: s.catalog},
		{tool: &mcp.Tool{Name: "tail", Annotations: readOnly("Wait for a session's next calls"), Description: "Wait, at most timeout_s " +
			"(30 by default, at most 60), for the next count (1 by default, at most 100) requests (what: calls, the default) or frames " +
			"(what: records) of a session, live as a proxy writes it, then answer them: the calls as the calls tool lists them, the frames as the " +
			"call tool shows them (an elicitation answer's values replaced). It counts after after_seq, by default what is written when it is " +
			"called; pass the answer's last_seq as after_seq to wait for what comes next. stopped says why it ended: count, timeout, ended " +
			"(the session's end) or writer-gone. Ask the user to reproduce the problem, then call it.",
			InputSchema: schema(tailIn), OutputSchema: schema(tailOut)}, wait: s.tail},
		{tool: &mcp.Tool{Name: "explain_rule", Annotations: readOnly("Explain a rule"), Description: "One rule's metadata and help paragraph: " +
			"what it looks at, why it matters and the spec section it enforces, with its severity under the user's [rules].",
			InputSchema: schema(explainIn), OutputSchema: schema(ruleOut)}, run: s.explain},
	}
}

// filterKeys lists the filter language's keys for the calls tool's
// description, from the one table the parser reads (filter.Spec).
func filterKeys() string {
	var keys []string
	for _, k := range filter.Spec() {
		v := string(k.Kind)
		switch {
		case len(k.Values) > 0:
			v = strings.Join(k.Values, "|")
		case v == "duration":
			v = ">DUR, >=DUR, <DUR or <=DUR, DUR a Go duration or milliseconds"
		}
		keys = append(keys, fmt.Sprintf("%s:%s (%s)", k.Name, v, k.Doc))
	}
	return strings.Join(keys, "; ")
}

// schema is a JSON Schema (2020-12) written out below.
func schema(s string) stdjson.RawMessage { return stdjson.RawMessage(s) }
