// Command mcpgoserver is a real MCP server built on
// github.com/mark3labs/mcp-go for mcptrail's end-to-end tests: it serves
// package mcpgopeer's tools, resource and prompt over stdio. The tests in
// the parent package build it and run it behind `mcptrail -- mcpgoserver`.
package main

import (
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcptrail/mcptrail/internal/e2e/mcpgopeer"
)

func main() {
	fmt.Fprintln(os.Stderr, "mcpgoserver: ready")
	if err := server.ServeStdio(mcpgopeer.NewServer()); err != nil {
		fmt.Fprintf(os.Stderr, "mcpgoserver: %v\n", err)
		os.Exit(1)
	}
}
