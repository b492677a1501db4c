//go:build unix

package nodestdio_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// elicitForm is server-everything's form elicitation: the TS client
// answers every field with a value of its type (string, boolean, integer,
// number, arrays of enums).
var elicitForm = plan{SDK: "v1", Calls: []call{{Name: "trigger-elicitation-request"}}}

// TestRedactedAnswersNotJudged: with --redact-answers every answer value is
// "[REDACTED]", a string, which the form's boolean, number and array
// fields cannot hold; redaction made them unverifiable, so
// elicitation-content-invalid does not judge them. The capture redacted as
// it is written checks clean at --fail-on info, and so does the unredacted
// capture redacted on read (export --redact-answers, whose findings are
// the store's). The answers were really redacted and really typed.
func TestRedactedAnswersNotJudged(t *testing.T) {
	t.Parallel()
	for _, atCapture := range []bool{true, false} {
		name := map[bool]string{true: "at capture", false: "on read"}[atCapture]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var tap []string
			if atCapture {
				tap = []string{"--redact-answers"}
			}
			caps := runClient(t, elicitForm, tap, everything(t)...)
			answer := elicitAnswer(t, caps[0])
			if atCapture {
				if !bytes.Contains(answer, []byte(`"check":"[REDACTED]"`)) {
					t.Fatalf("the answer is not redacted: %s", answer)
				}
				if got := findings(t, caps[0]); len(got) != 0 {
					t.Errorf("findings %v, want none", got)
				}
				return
			}
			if !bytes.Contains(answer, []byte(`"check":true`)) || !bytes.Contains(answer, []byte(`"integer":42`)) {
				t.Fatalf("the answer holds no typed values: %s", answer)
			}
			if got := findings(t, caps[0]); len(got) != 0 {
				t.Errorf("unredacted: findings %v, want none", got)
			}
			if got := exportFindings(t, caps[0], "--redact-answers"); len(got) != 0 {
				t.Errorf("export --redact-answers: findings %v, want none", got)
			}
		})
	}
}

// elicitAnswer returns the client's answer to the server's
// elicitation/create in capture (its result member).
func elicitAnswer(t *testing.T, capture string) []byte {
	t.Helper()
	data, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(data) {
		var r struct {
			Dir string
			Msg struct {
				Result json.RawMessage
			}
		}
		if json.Unmarshal(line, &r) == nil && r.Dir == "c2s" && bytes.Contains(r.Msg.Result, []byte(`"action":"accept"`)) {
			return r.Msg.Result
		}
	}
	t.Fatalf("no accepted elicitation answer in %s", capture)
	return nil
}

// exportFindings returns the rule ids of the findings `mcptrail export -T
// json [extra] capture` reports.
func exportFindings(t *testing.T, capture string, extra ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append(append([]string{"export", "-T", "json"}, extra...), capture)
	cmd := exec.CommandContext(ctx, bins.mcptrail, args...)
	cmd.Env = env(t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcptrail %v: %v", args, err)
	}
	var doc struct {
		Findings []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("mcptrail %v: %v", args, err)
	}
	var ids []string
	for _, f := range doc.Findings {
		ids = append(ids, f.Rule)
	}
	return ids
}

// TestDemoRedactedSameFindings: `mcptrail demo --redact-answers` raises
// exactly the findings of `mcptrail demo` (the demo's deliberate ones),
// none more for the answers it redacted.
func TestDemoRedactedSameFindings(t *testing.T) {
	t.Parallel()
	demo := func(extra ...string) []string {
		home := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bins.mcptrail, append([]string{"demo"}, extra...)...)
		cmd.Env = env(home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mcptrail demo %v: %v\n%s", extra, err, out)
		}
		caps, _ := filepath.Glob(filepath.Join(home, "mcptrail", "sessions", "*.jsonl"))
		if len(caps) != 1 {
			t.Fatalf("demo %v wrote %v, want one capture", extra, caps)
		}
		got := findings(t, caps[0])
		slices.Sort(got)
		return got
	}
	plain, redacted := demo(), demo("--redact-answers")
	if len(plain) == 0 {
		t.Fatal("the demo raised no finding; the comparison would be vacuous")
	}
	if diff := cmp.Diff(plain, redacted); diff != "" {
		t.Errorf("findings of demo (-plain +redacted):\n%s", diff)
	}
}
