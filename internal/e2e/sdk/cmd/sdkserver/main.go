// Command sdkserver is a real MCP server built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) for mcptrail's end-to-end tests.
// It serves the tools of package sdkpeer over stdio:
//
//   - confirm: one form elicitation (MRTR input_required on 2026-07-28), then
//     a result that reports the action it got (decline and cancel are tool
//     errors);
//   - chained: two MRTR rounds, each with a form elicitation, then a result;
//   - book (with -legacy): a 2025-11-25 tool that asks the client through a
//     server-initiated elicitation/create in the middle of the call.
//
// With -catalog it serves sdkpeer.NewCatalogServer instead (2025-11-25
// only with -legacy): tools listed two a page, and a grow tool that changes
// the list.
//
// With -variant NAME one tool is changed, or one added, for the replay
// tests (sdkpeer.ApplyVariant: changed, error, extra-field, slow or
// param-header).
//
// With -listing NAME its tools/list says something else of its tools
// (sdkpeer.ApplyListing: destructive, read-only or hidden), for the
// replay tests.
//
// With -wire DIR it also copies the exact bytes it reads from stdin to
// DIR/server-in and the bytes it writes to stdout to DIR/server-out, so a
// test can check that the proxy in between changed nothing.
//
// The tests in the parent package build it with `go build` and run it behind
// `mcptrail -- sdkserver`.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name and Version identify the server in serverInfo.
func main() {
	legacy := flag.Bool("legacy", false, "serve 2025-11-25 only, with the server-initiated elicitation tool")
	wire := flag.String("wire", "", "copy the stdio bytes to `dir`/server-in and server-out")
	catalog := flag.Bool("catalog", false, "serve the catalog test's tools instead")
	variant := flag.String("variant", "", "change or add one tool for the replay tests (sdkpeer.ApplyVariant: changed, error, extra-field, slow, param-header)")
	listing := flag.String("listing", "", "what tools/list says of the tools, for the replay tests (sdkpeer.ApplyListing: destructive, read-only, hidden)")
	flag.Parse()
	srv := sdkpeer.NewServer(*legacy)
	if err := sdkpeer.ApplyVariant(srv, *legacy, *variant); err != nil {
		fmt.Fprintf(os.Stderr, "sdkserver: %v\n", err)
		os.Exit(2)
	}
	if err := sdkpeer.ApplyListing(srv, *listing); err != nil {
		fmt.Fprintf(os.Stderr, "sdkserver: %v\n", err)
		os.Exit(2)
	}
	if *catalog {
		srv = sdkpeer.NewCatalogServer(*legacy)
	}
	if err := run(context.Background(), srv, *wire); err != nil {
		fmt.Fprintf(os.Stderr, "sdkserver: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, srv *mcp.Server, wire string) error {
	var t mcp.Transport = &mcp.StdioTransport{}
	if wire != "" {
		in, err := os.Create(filepath.Join(wire, "server-in"))
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(filepath.Join(wire, "server-out"))
		if err != nil {
			return err
		}
		defer out.Close()
		t = &mcp.IOTransport{
			Reader: readCloser{io.TeeReader(os.Stdin, in), os.Stdin},
			Writer: writeCloser{io.MultiWriter(os.Stdout, out), out},
		}
	}
	fmt.Fprintln(os.Stderr, "sdkserver: ready")
	return srv.Run(ctx, t)
}

// readCloser and writeCloser give a tee a Close method.
type readCloser struct {
	io.Reader
	io.Closer
}

type writeCloser struct {
	io.Writer
	io.Closer
}
