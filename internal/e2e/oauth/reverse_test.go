package oauth_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/e2e/oauthserver"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestReverseAbsoluteMetadata: the test server's 401 names its
// resource_metadata as an absolute URL on its own origin, and the real TS
// SDK v1 and v2 clients use it through `mcptrail http --target`: they
// fetch the metadata around the proxy, refuse its resource (not the
// proxy's URL) and stop after the one 401. mcptrail says so on stderr at
// the 401, and the capture raises oauth-metadata-around-proxy.
func TestReverseAbsoluteMetadata(t *testing.T) {
	dir := scripts(t)
	for _, script := range []string{"sdk-v1.mjs", "sdk-v2.mjs"} {
		t.Run(strings.TrimSuffix(script, ".mjs"), func(t *testing.T) {
			t.Parallel()
			srv := oauthserver.New(&oauthserver.Options{})
			t.Cleanup(srv.Close)
			home := t.TempDir()
			tp := &forwardTap{home: home, capture: filepath.Join(home, "session.jsonl"), stderr: new(testbin.Buffer), done: make(chan error, 1)}
			tp.cmd = exec.Command(env.mcptrail, "http", "--listen", "127.0.0.1:0", "--target", srv.URL(), "--capture", tp.capture)
			tp.cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
			tp.cmd.Dir = home
			addr := tp.start(t)

			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, script), "http://"+addr+oauthserver.MCPPath)
			cmd.Dir = dir
			cmd.Env = append(nodeEnv(route{}), "HOME="+t.TempDir())
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err == nil {
				t.Fatalf("node %s completed the flow through the reverse proxy; the test expects the client to refuse the resource:\n%s", script, out.Bytes())
			}
			t.Logf("node %s (expected to fail):\n%s", script, out.Bytes())
			tp.stop(t)

			hint := "names resource_metadata " + srv.ResourceMetadataURL() + " on the target's own origin"
			if n := strings.Count(tp.stderr.String(), hint); n != 1 {
				t.Errorf("stderr holds the hint %d times, want 1:\n%s", n, tp.stderr.String())
			}
			check := exec.Command(env.mcptrail, "check", "--fail-on", "warning", tp.capture)
			check.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
			text, err := check.CombinedOutput()
			if err == nil || !strings.Contains(string(text), "oauth-metadata-around-proxy") {
				t.Errorf("check --fail-on warning (%v) does not flag oauth-metadata-around-proxy:\n%s", err, text)
			}
		})
	}
}
