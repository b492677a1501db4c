package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestColorOnATerminal runs every command that prints a table or a text
// report on a terminal (which a script cannot give it): coloured by
// default, not with NO_COLOR under --color auto, and coloured with
// --color always over NO_COLOR (issue 28 item 5; conventions.txtar checks
// the same off a terminal).
func TestColorOnATerminal(t *testing.T) {
	t.Parallel()
	demo, err := os.ReadFile(filepath.Join("testdata", "tables", "state", "sessions", "20261130T181247.381109Z-demo-356fad4c62737225.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	files := scriptFiles(t, "conventions.txtar")
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	path := writeFile(t, filepath.Join(state, "sessions"), "20261130T181247.381109Z-demo-356fad4c62737225.jsonl", demo)
	tools := writeFile(t, dir, "v1.jsonl", files["v1.jsonl"])
	auth := writeFile(t, dir, "clean.jsonl", files["clean.jsonl"])
	commands := [][]string{
		{"sessions"}, {"ledger"}, {"tools", tools}, {"auth", auth}, {"rules"},
		{"stats"}, {"stats", "--by", "question"}, {"export", "-T", "text", path},
		{"check", path}, {"diff", path, path},
	}
	tests := []struct {
		name  string
		flags []string
		env   map[string]string
		color bool
	}{
		{"auto", nil, nil, true},
		{"NO_COLOR under auto", []string{"--color", "auto"}, map[string]string{"NO_COLOR": "1"}, false},
		{"always over NO_COLOR", []string{"--color", "always"}, map[string]string{"NO_COLOR": "1"}, true},
		{"never", []string{"--color", "never"}, nil, false},
	}
	for _, c := range commands {
		for _, tt := range tests {
			t.Run(strings.Join(c, " ")+"/"+tt.name, func(t *testing.T) {
				env := map[string]string{"MCPTRAIL_HOME": state}
				for k, v := range tt.env {
					env[k] = v
				}
				ios, out, errOut := tableStreams(120, env)
				args := append(append([]string{}, c...), tt.flags...)
				// check's verdict on the demo's scripted faults is 1.
				if code := Main(context.Background(), args, ios); code > 1 {
					t.Fatalf("mcptrail %v: status %d, stderr:\n%s", args, code, errOut)
				}
				if got := strings.Contains(out.String(), "\x1b["); got != tt.color {
					t.Errorf("mcptrail %v: SGR in stdout = %v, want %v:\n%s", args, got, tt.color, out)
				}
			})
		}
	}
}
