// Command sdkclient is a go-sdk (github.com/modelcontextprotocol/go-sdk)
// Streamable HTTP client for the conformance harness's client scenarios:
// it connects to the URL given as its last argument, lists the tools,
// calls each with no arguments and prints one line per answer.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(os.Args[len(os.Args)-1]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkclient:", err)
		os.Exit(1)
	}
}

func run(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcptrail-e2e-go-client", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	for _, tl := range tools.Tools {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tl.Name, Arguments: map[string]any{}})
		if err != nil {
			return fmt.Errorf("calling %s: %w", tl.Name, err)
		}
		for _, ct := range res.Content {
			if t, ok := ct.(*mcp.TextContent); ok {
				fmt.Printf("%s: %s\n", tl.Name, t.Text)
			}
		}
	}
	return nil
}
