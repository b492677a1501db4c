package http_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// fs20 stands in for node:fs in the harness's bundle: it imports
// fs.globSync, which Node 20 lacks (only its tier-check uses it).
const fs20 = `import * as fs from 'node:fs';
export * from 'node:fs';
export const globSync = fs.globSync ?? (() => { throw new Error('fs.globSync needs Node 22'); });
`

// conformanceCLI returns the path of the conformance harness's CLI
// (@modelcontextprotocol/conformance from the Node peers), copied under
// dir so that it runs on Node 20 too: the copy imports fs20 for node:fs,
// and resolves its own undici (the package's nested one) before the peers'.
func conformanceCLI(t *testing.T, dir string) string {
	t.Helper()
	pkg := filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "conformance")
	src, err := os.ReadFile(filepath.Join(pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(src, []byte(`from"fs"`)) != 1 {
		t.Fatalf("the harness's bundle does not import fs once as this test expects")
	}
	conf := filepath.Join(dir, "conformance")
	if err := os.MkdirAll(filepath.Join(conf, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pkg, "node_modules", "undici"), filepath.Join(conf, "node_modules", "undici")); err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(conf, "conformance.mjs")
	if err := os.WriteFile(cli, bytes.Replace(src, []byte(`from"fs"`), []byte(`from"./fs20.mjs"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "fs20.mjs"), []byte(fs20), 0o644); err != nil {
		t.Fatal(err)
	}
	return cli
}

// TestConformanceSSERetry runs the conformance harness's sse-retry client
// scenario with the TS SDK v2 and go-sdk clients through `mcptrail http`:
// the harness's server closes the tools/call POST's SSE stream after a
// priming event (id and retry hint) and answers the call on the GET the
// client resumes with Last-Event-ID. The call pairs ok, and check
// --fail-on info passes: a stream that ended to be resumed lost nothing.
func TestConformanceSSERetry(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	cli := conformanceCLI(t, dir)
	for _, client := range []string{"v2", "go"} {
		t.Run(client, func(t *testing.T) {
			t.Parallel()
			capturePath := filepath.Join(t.TempDir(), "session.jsonl")
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", cli, "client", "--scenario", "sse-retry", "--timeout", "40000",
				"-o", t.TempDir(), "--command", "node "+filepath.Join(dir, "tapclient.mjs")+" "+client)
			cmd.Dir = dir
			home := t.TempDir()
			cmd.Env = append(os.Environ(), "MCPTRAIL_BIN="+bins.mcptrail, "TAP_CAPTURE="+capturePath, "GO_CLIENT="+bins.sdkclient,
				"MCPTRAIL_HOME="+home, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
			out, err := cmd.CombinedOutput()
			if err != nil || testing.Verbose() {
				t.Logf("conformance client --scenario sse-retry (%s):\n%s", client, out)
			}
			if err != nil {
				// The harness judges the client; through the tap, it must
				// pass as it does directly.
				t.Errorf("the harness failed the %s client through the tap: %v", client, err)
			}
			if _, serr := os.Stat(capturePath); serr != nil {
				t.Fatalf("no capture: %v", serr)
			}
			if code, text := runCheck(t, capturePath); code != 0 {
				t.Errorf("check --fail-on info exited %d on a resumed stream:\n%s", code, text)
			}
			var calls []string
			for _, c := range exportCalls(t, runExport(t, capturePath)) {
				if c["method"] == "tools/call" {
					calls = append(calls, c["target"].(string)+" "+c["status"].(string))
				}
			}
			if strings.Join(calls, ",") != "test_reconnection ok" {
				t.Errorf("tools/call calls %q, want test_reconnection answered ok", calls)
			}
		})
	}
}
