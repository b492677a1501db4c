package mock_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// listening matches the line `mcptrail http` and `mcptrail mock --http`
// print once they listen.
var listening = regexp.MustCompile(`listening on http://(\S+)/`)

// listener is an mcptrail process that listens (`http` or `mock --http`).
type listener struct {
	cmd    *exec.Cmd
	stderr *testbin.Buffer
	done   chan error
	addr   string
}

// startListener runs mcptrail with args (MCPTRAIL_HOME=home) and waits
// until it listens; it is killed at cleanup if still running.
func startListener(t *testing.T, home string, args ...string) *listener {
	t.Helper()
	l := &listener{stderr: new(testbin.Buffer), done: make(chan error, 1)}
	l.cmd = exec.Command(bins.mcptrail, args...)
	l.cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	l.addr = testbin.StartListener(t, l.cmd, l.stderr, l.done, listening)
	t.Cleanup(func() {
		if l.cmd.ProcessState == nil {
			_ = l.cmd.Process.Kill()
			<-l.done
		}
	})
	return l
}

// stop interrupts the listener and waits for its clean exit.
func (l *listener) stop(t *testing.T) {
	t.Helper()
	testbin.StopListener(t, l.cmd, l.stderr, l.done)
}

// exported is what the tests read of `mcptrail export -T json`.
type exported struct {
	Calls []struct {
		Dir        string `json:"dir"`
		Method     string `json:"method"`
		Target     string `json:"target"`
		Status     string `json:"status"`
		ResultType string `json:"result_type"`
		Round      int    `json:"round"`
	} `json:"calls"`
	Elicitations []ledgerRow `json:"elicitations"`
	Findings     []struct {
		Rule    string `json:"rule"`
		Message string `json:"message"`
	} `json:"findings"`
}

// ledgerRow is the part of a ledger row that says what was asked and what
// the user did: no ids, seqs or times.
type ledgerRow struct {
	Era     string `json:"era"`
	Round   int    `json:"round"`
	Key     string `json:"key"`
	Mode    string `json:"mode"`
	Message string `json:"message"`
	Fields  []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Required bool   `json:"required"`
	} `json:"fields"`
	URL    string `json:"url"`
	Action string `json:"action"`
	Status string `json:"status"`
}

// runExport runs `mcptrail export -T json capture` and decodes it.
func runExport(t *testing.T, path string) *exported {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, "export", "-T", "json", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail export -T json %s: %v\nstderr:\n%s", path, err, stderr.Bytes())
	}
	var x exported
	if err := json.Unmarshal(stdout.Bytes(), &x, json.RejectUnknownMembers(false)); err != nil {
		t.Fatalf("decoding the export of %s: %v", path, err)
	}
	return &x
}

// findings lists the rule ids of the export's findings, logging each.
func (x *exported) findings(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range x.Findings {
		out = append(out, f.Rule)
		t.Logf("finding %s: %s", f.Rule, f.Message)
	}
	return out
}
