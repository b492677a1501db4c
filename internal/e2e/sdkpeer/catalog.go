package sdkpeer

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewCatalogServer returns a go-sdk server for the catalog test: it lists
// its tools two a page (alpha, beta, gamma, grow), and its grow tool
// changes beta's description, adds delta and removes gamma, which the
// server announces with notifications/tools/list_changed (in 2026-07-28
// only on a subscriptions/listen stream). With legacy set it serves
// 2025-11-25 only.
func NewCatalogServer(legacy bool) *mcp.Server {
	opts := mcp.ServerOptions{PageSize: 2}
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &opts)
	add := func(name, desc string) {
		mcp.AddTool(srv, &mcp.Tool{Name: name, Description: desc}, noop)
	}
	add("alpha", "the first tool")
	add("beta", "the second tool")
	add("gamma", "the third tool")
	mcp.AddTool(srv, &mcp.Tool{Name: "grow", Description: "changes the tool list"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			add("beta", "the second tool, changed")
			add("delta", "a new tool")
			srv.RemoveTools("gamma")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "grown"}}}, nil, nil
		})
	return srv
}

// noop is a tool that does nothing.
func noop(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
}
