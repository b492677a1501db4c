// Command sdkserver is a real MCP server built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) for mcptrail's end-to-end tests.
// It speaks stdio and exposes elicitation tools:
//
//   - confirm: one form elicitation (MRTR input_required on 2026-07-28), then
//     a result that reports the action it got (decline and cancel are tool
//     errors);
//   - chained: two MRTR rounds, each with a form elicitation, then a result;
//   - book (with -legacy): a 2025-11-25 tool that asks the client through a
//     server-initiated elicitation/create in the middle of the call.
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
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name and Version identify the server in serverInfo.
const (
	Name    = "e2e-sdk-server"
	Version = "0.3.0"
)

func main() {
	legacy := flag.Bool("legacy", false, "serve 2025-11-25 only, with the server-initiated elicitation tool")
	wire := flag.String("wire", "", "copy the stdio bytes to `dir`/server-in and server-out")
	flag.Parse()
	if err := run(context.Background(), *legacy, *wire); err != nil {
		fmt.Fprintf(os.Stderr, "sdkserver: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, legacy bool, wire string) error {
	var opts mcp.ServerOptions
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &opts)
	var states stateSeq
	if legacy {
		mcp.AddTool(srv, &mcp.Tool{Name: "book", Description: "books a table, asking how many guests"}, book)
	} else {
		mcp.AddTool(srv, &mcp.Tool{Name: "confirm", Description: "asks for one confirmation"}, states.confirm)
		mcp.AddTool(srv, &mcp.Tool{Name: "chained", Description: "asks twice, in two rounds"}, states.chained)
		mcp.AddTool(srv, &mcp.Tool{Name: "visit", Description: "asks the user to visit a URL"}, states.visit)
	}
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

// stateSeq numbers the requestState values the server hands out, so every
// interim result carries a distinct state.
type stateSeq struct{ n atomic.Int64 }

func (s *stateSeq) next(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, s.n.Add(1))
}

// formQuestion is a form-mode elicitation with one required boolean field.
func formQuestion(msg, field string) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: msg,
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{field: map[string]any{"type": "boolean"}},
			"required":   []string{field},
		},
	}
}

func (s *stateSeq) confirm(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	if len(p.InputResponses) == 0 {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"confirm": formQuestion("Proceed?", "ok")},
			RequestState:  s.next("confirm"),
		}, nil, nil
	}
	if !strings.HasPrefix(p.RequestState, "confirm-") {
		return errorResult("bad requestState %q", p.RequestState), nil, nil
	}
	return answerResult("confirm", p.InputResponses["confirm"]), nil, nil
}

// visitURL is where the visit tool sends the user (URL-mode elicitation).
const visitURL = "https://auth.example.com/connect?session=e2e"

// visit asks the user to visit a URL (an MRTR URL-mode elicitation), then
// reports the answer.
func (s *stateSeq) visit(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	if len(p.InputResponses) == 0 {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"login": &mcp.ElicitParams{
				Mode: "url", Message: "Sign in to continue", URL: visitURL, ElicitationID: "el-visit",
			}},
			RequestState: s.next("visit"),
		}, nil, nil
	}
	if !strings.HasPrefix(p.RequestState, "visit-") {
		return errorResult("bad requestState %q", p.RequestState), nil, nil
	}
	return answerResult("login", p.InputResponses["login"]), nil, nil
}

func (s *stateSeq) chained(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	switch {
	case len(p.InputResponses) == 0:
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"step1": formQuestion("Step 1: continue?", "go")},
			RequestState:  s.next("chain1"),
		}, nil, nil
	case p.InputResponses["step1"] != nil && strings.HasPrefix(p.RequestState, "chain1-"):
		if r := answerResult("step1", p.InputResponses["step1"]); r.IsError {
			return r, nil, nil
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"step2": formQuestion("Step 2: really continue?", "go")},
			RequestState:  s.next("chain2"),
		}, nil, nil
	case p.InputResponses["step2"] != nil && strings.HasPrefix(p.RequestState, "chain2-"):
		return answerResult("step2", p.InputResponses["step2"]), nil, nil
	}
	return errorResult("unexpected retry: state %q", p.RequestState), nil, nil
}

// book asks the client mid-call with a legacy server-initiated
// elicitation/create and reports the answer.
func book(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
		Mode:    "form",
		Message: "How many guests?",
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"guests": map[string]any{"type": "integer", "minimum": 1}},
			"required":   []string{"guests"},
		},
	})
	if err != nil {
		return errorResult("elicitation failed: %v", err), nil, nil
	}
	return answerResult("guests", res), nil, nil
}

// answerResult turns an elicitation answer into the tool's final result:
// accept completes, decline and cancel are tool errors saying so.
func answerResult(key string, resp mcp.InputResponse) *mcp.CallToolResult {
	er, ok := resp.(*mcp.ElicitResult)
	if !ok || er == nil {
		return errorResult("%s: no elicitation answer (got %T)", key, resp)
	}
	switch er.Action {
	case "accept":
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: key + ": accepted"}}}
	case "decline":
		return errorResult("%s: declined", key)
	case "cancel":
		return errorResult("%s: cancelled", key)
	}
	return errorResult("%s: unknown action %q", key, er.Action)
}

func errorResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}},
		IsError: true,
	}
}
