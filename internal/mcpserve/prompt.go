package mcpserve

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addPrompt registers debug_session: the walk through a session an
// agent should take, summary → failing calls → frames → findings, with
// the session's summary to start from.
func (s *Server) addPrompt(srv *mcp.Server) {
	srv.AddPrompt(&mcp.Prompt{Name: "debug_session", Title: "Debug an MCP session from its capture",
		Description: "Walk through a captured session: its summary, the failing calls, their frames, the findings and their rules.",
		Arguments: []*mcp.PromptArgument{{Name: "session", Description: "a session id or unique id prefix; empty: the newest session"},
			{Name: "problem", Description: "what the user saw go wrong, in their words"}}}, s.debugPrompt)
}

func (s *Server) debugPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	arg, problem := req.Params.Arguments["session"], req.Params.Arguments["problem"]
	s.mu.Lock()
	snap, err := s.load(arg)
	var summaryText string
	if err == nil {
		sum := summarize(snap)
		sum.Session.Live = s.live
		summaryText = sum.trim(512).text(512)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("session %q: %s (the sessions tool lists them)", cut(arg, 64), show(err.Error(), 512))
	}
	id := snap.Session.ID
	if len(summaryText) > s.opts.MaxAnswer/2 {
		summaryText = cut(summaryText, s.opts.MaxAnswer/2)
	}
	text := fmt.Sprintf(`Debug the MCP session %[1]s that mcptrail captured, from its real traffic.`, id)
	if problem != "" {
		text += fmt.Sprintf(" The user reports: %q.", show(problem, 1024))
	}
	text += fmt.Sprintf(`

Its summary (session_summary):

%[2]s
Go through it in this order, with the mcptrail tools, each with session %[1]q:
1. session_summary: the counts, the failed and the slowest calls, what the server asked the user, the findings by rule.
2. calls with filter "status:error", then "status:tool-error" (a tool's isError result), "status:pending", "slow:>1s",
   "elicit:decline" as the summary suggests: the failing calls.
3. call with each failing call's index: its request, its answer, a cancellation; a frame's strings are cut, read its uri
   (mcptrail://sessions/%[1]s/frames/SEQ) for the frame whole.
4. check: the findings under the user's rules, each with its rule's help and spec section; explain_rule for a rule's help.
5. ledger when the server asked the user something; tools for the catalog, with baseline to see what changed since an older session;
   diff against a session that worked.
6. If the problem does not show in this capture, ask the user to reproduce it and call tail to watch the next calls arrive.
Then say what went wrong, at which frame, and what in the server to change; quote seqs so the user can look.`, id, summaryText)
	return &mcp.GetPromptResult{Description: "Debug session " + show(id, 128),
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
}
