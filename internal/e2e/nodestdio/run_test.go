//go:build unix

package nodestdio_test

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

//go:embed testdata/client.mjs
var clientScript []byte

// plan is what testdata/client.mjs does (its first argument).
type plan struct {
	SDK         string `json:"sdk"`                   // "v1" or "v2"
	Negotiation string `json:"negotiation,omitempty"` // v2: "auto" or "legacy"
	Calls       []call `json:"calls,omitempty"`
	// ThinkMS is how long the client's user takes to answer a form.
	ThinkMS int `json:"thinkMs,omitempty"`
}

type call struct {
	Name string `json:"name"`
}

// nodeDir returns a temporary directory holding client.mjs next to a
// node_modules link to the Node peers, so that its imports resolve.
func nodeDir(t *testing.T) string {
	t.Helper()
	mods := testbin.NodeModules(t)
	dir := t.TempDir()
	if err := os.Symlink(mods, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), clientScript, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// everything is the argv of server-everything over stdio.
func everything(t *testing.T) []string {
	t.Helper()
	return []string{"node", filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol/server-everything/dist/index.js"), "stdio"}
}

// env is a child's environment: HOME and the XDG directories in dir, the
// mcptrail state directory in dir too.
func env(dir string) []string {
	return append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(dir, ".cache"), "XDG_STATE_HOME="+filepath.Join(dir, ".state"),
		"MCPTRAIL_HOME="+filepath.Join(dir, "mcptrail"))
}

// runClient runs client.mjs with p against `mcptrail --capture DIR/c-{time}-{id}.jsonl
// [tapArgs] -- server`, and returns the captures it made, one per mcptrail
// (TS v2's auto negotiation probes on a sibling process of its own).
func runClient(t *testing.T, p plan, tapArgs []string, server ...string) []string {
	t.Helper()
	dir := nodeDir(t)
	capDir := t.TempDir()
	pj, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{filepath.Join(dir, "client.mjs"), string(pj), "--", bins.mcptrail,
		"--capture", filepath.Join(capDir, "c-{time}-{id}.jsonl")}
	args = append(append(append(args, tapArgs...), "--"), server...)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Env = env(t.TempDir())
	var stderr testbin.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil || !strings.Contains(stderr.String(), "closed") {
		t.Fatalf("client %s: %v\nstderr:\n%s", pj, err, stderr.String())
	}
	caps, _ := filepath.Glob(filepath.Join(capDir, "*.jsonl"))
	if len(caps) == 0 {
		t.Fatalf("no capture in %s", capDir)
	}
	slices.Sort(caps)
	return caps
}

// report is the part of `mcptrail check -T json` the tests read.
type report struct {
	Failed  bool `json:"failed"`
	Results []struct {
		Items []struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		} `json:"items"`
	} `json:"results"`
}

// findings runs `mcptrail check -T json --fail-on info [extra] capture`
// and returns "rule (severity)" of each finding.
func findings(t *testing.T, capture string, extra ...string) []string {
	t.Helper()
	var out []string
	for _, it := range checkItems(t, capture, extra...) {
		out = append(out, it[0])
	}
	return out
}

// checkItems runs `mcptrail check -T json --fail-on info [extra] capture`
// and returns "rule (severity)" and the message of each finding.
func checkItems(t *testing.T, capture string, extra ...string) [][2]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append(append([]string{"check", "-T", "json", "--fail-on", "info"}, extra...), capture)
	cmd := exec.CommandContext(ctx, bins.mcptrail, args...)
	cmd.Env = env(t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var rep report
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil {
		t.Fatalf("mcptrail %v: %v, %v\nstdout:\n%s\nstderr:\n%s", args, err, jerr, stdout.Bytes(), stderr.Bytes())
	}
	var out [][2]string
	for _, r := range rep.Results {
		for _, it := range r.Items {
			out = append(out, [2]string{it.Rule + " (" + it.Severity + ")", it.Message})
			t.Logf("%s: %s (%s): %s", filepath.Base(capture), it.Rule, it.Severity, it.Message)
		}
	}
	if (err == nil) != (len(out) == 0) {
		t.Errorf("mcptrail check exited %v with %d findings at --fail-on info", err, len(out))
	}
	return out
}

// notes returns the capture's note records, as "note stopped_by".
func notes(t *testing.T, capture string) []string {
	t.Helper()
	data, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for line := range bytes.Lines(data) {
		var r struct {
			Type, Note, Signal string
			StoppedBy          string `json:"stopped_by"`
		}
		if json.Unmarshal(line, &r) == nil && r.Type == "note" {
			out = append(out, strings.TrimSpace(r.Note+" "+r.Signal+" "+r.StoppedBy))
		}
	}
	return out
}
