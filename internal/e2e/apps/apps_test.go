package apps_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// appServer is the ext-apps reference server's stdio entry point under
// the Node peers. An older peer install without it skips the test, which
// fails under CI=true, where .ci/run installs testbin.NodePackages.
func appServer(t *testing.T) string {
	t.Helper()
	p := filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the Node peers lack the ext-apps reference server: %v", err)
		}
		t.Skipf("skipping: the Node peers lack @modelcontextprotocol/server-basic-vanillajs (%v); reinstall testbin.NodePackages", err)
	}
	return p
}

// TestReferenceAppServer plays two hosts against the reference server:
// one that reads the get-time tool's ui:// resource before calling it,
// and one that calls it and never reads the resource (an app that does
// not render).
func TestReferenceAppServer(t *testing.T) {
	server := appServer(t)
	for _, tc := range []struct {
		name     string
		read     bool
		apps     []app
		findings map[string]int
	}{
		{"reads its UI", true, []app{{Tool: "get-time", ResourceURI: "ui://get-time/mcp-app.html", Calls: 1, Reads: 1, MimeType: "text/html;profile=mcp-app"}}, map[string]int{}},
		{"never reads its UI", false, []app{{Tool: "get-time", ResourceURI: "ui://get-time/mcp-app.html", Calls: 1}}, map[string]int{"app-resource-not-read": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			capture := filepath.Join(dir, "capture.jsonl")
			host(t, dir, []string{"--capture", capture, "--", "node", server, "--stdio"}, tc.read)
			x := export(t, dir, capture)
			if diff := cmp.Diff(tc.apps, x.Catalog.Apps); diff != "" {
				t.Errorf("catalog.apps (-want +got):\n%s", diff)
			}
			got := map[string]int{}
			for _, f := range x.Findings {
				got[f.Rule]++
			}
			if diff := cmp.Diff(tc.findings, got); diff != "" {
				t.Errorf("findings by rule (-want +got):\n%s", diff)
			}
			if tc.read && (len(x.Catalog.Reads) != 1 || !x.Catalog.Reads[0].UI || x.Catalog.Reads[0].Size == 0) {
				t.Errorf("catalog.reads = %+v, want the one UI read with its size", x.Catalog.Reads)
			}
		})
	}
}

// app is what the test reads of an element of catalog.apps.
type app struct {
	Tool        string `json:"tool"`
	ResourceURI string `json:"resource_uri"`
	Calls       int    `json:"calls"`
	Reads       int    `json:"reads"`
	MimeType    string `json:"mime_type"`
}

type exported struct {
	Catalog struct {
		Apps  []app `json:"apps"`
		Reads []struct {
			URI  string `json:"uri"`
			UI   bool   `json:"ui"`
			Size int    `json:"size"`
		} `json:"reads"`
	} `json:"catalog"`
	Findings []struct {
		Rule string `json:"rule"`
	} `json:"findings"`
}

// host runs `mcptrail args...` and plays a host against it over stdio: the
// 2025-11-25 handshake declaring MCP Apps, tools/list, the UI resource's
// read when read is set, and a call of get-time; then it closes stdin and
// waits for the proxy to exit.
func host(t *testing.T, dir string, args []string, read bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, mcptrailBin, args...)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &limited{max: 64 << 10}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &rpc{t: t, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	c.call(0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}},"clientInfo":{"name":"e2e-apps-host","version":"1.0.0"}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.call(1, "tools/list", `{}`)
	if read {
		c.call(2, "resources/read", `{"uri":"ui://get-time/mcp-app.html"}`)
	}
	c.call(3, "tools/call", `{"name":"get-time","arguments":{}}`)
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, c.out); err != nil {
		t.Fatalf("reading the proxy's stdout to its end: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcptrail: %v; stderr:\n%s", err, stderr.b)
	}
}

// rpc writes requests and reads the proxy's stdout until each answer.
type rpc struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

func (c *rpc) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// call sends a request and returns its result, failing on an error answer
// or a stream that ends first; notifications and server requests before
// the answer are skipped.
func (c *rpc) call(id int, method, params string) json.RawMessage {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			c.t.Fatalf("%s: reading the answer: %v", method, err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			c.t.Fatalf("%s: undecodable line %q: %v", method, line, err)
		}
		if m.ID == nil || *m.ID != id || m.Method != "" {
			continue
		}
		if m.Error != nil {
			c.t.Fatalf("%s answered with an error: %s", method, m.Error)
		}
		return m.Result
	}
}

// export returns the JSON export of a capture.
func export(t *testing.T, dir, capture string) exported {
	t.Helper()
	cmd := exec.Command(mcptrailBin, "export", "-T", "json", capture)
	cmd.Dir = dir
	b, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("mcptrail export: %v; stderr:\n%s", err, ee.Stderr)
	} else if err != nil {
		t.Fatal(err)
	}
	var x exported
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatalf("decoding the export: %v", err)
	}
	return x
}

// limited keeps the first max bytes written to it.
type limited struct {
	b   []byte
	max int
}

func (l *limited) Write(p []byte) (int, error) {
	if n := l.max - len(l.b); n > 0 {
		l.b = append(l.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}
