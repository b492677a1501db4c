// Package scripts_test runs the repository's shell scripts against fake
// programs, so that what the GitHub Action's step does is tested like the
// rest of mcptrail.
package scripts_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeMcptrail stands for mcptrail: it writes its arguments, one a line,
// to $FAKE_ARGS, prints $FAKE_SARIF and exits $FAKE_CODE.
const fakeMcptrail = `#!/usr/bin/env bash
printf '%s\n' "$@" >"$FAKE_ARGS"
printf '%s' "$FAKE_SARIF"
echo "fake mcptrail: findings" >&2
exit "$FAKE_CODE"
`

const fakeSARIF = `{"version":"2.1.0","runs":[]}`

type run struct {
	code    int
	args    []string // nil: mcptrail was not run
	sarif   string   // "": no report written
	outputs string
}

// runActionCheck runs scripts/action-check.sh in a fresh directory with the
// fake mcptrail on PATH exiting fakeCode and env added, and reports what
// happened. The report path in the result is relative to that directory.
func runActionCheck(t *testing.T, fakeCode string, env ...string) run {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs("action-check.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir, bin := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "mcptrail"), []byte(fakeMcptrail), 0o755); err != nil {
		t.Fatal(err)
	}
	argsFile, outFile := filepath.Join(bin, "args"), filepath.Join(bin, "github-output")
	cmd := exec.Command(bash, script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FAKE_ARGS="+argsFile, "FAKE_SARIF="+fakeSARIF, "FAKE_CODE="+fakeCode, "GITHUB_OUTPUT="+outFile,
		"MCPTRAIL_BIN=", "MCPTRAIL_FAIL_ON=", "MCPTRAIL_BASELINE=", "MCPTRAIL_ARGS=", "MCPTRAIL_SARIF=")
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var got run
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running %s: %v", script, err)
		}
		got.code = exit.ExitCode()
	}
	t.Logf("stderr:\n%s", stderr.Bytes())
	if b, err := os.ReadFile(argsFile); err == nil {
		got.args = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(outFile); err == nil {
		got.outputs = string(b)
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	got.sarif = reports(t, dir)
	return got
}

// reports lists the files under dir with their contents, "path: content"
// one a line.
func reports(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		b.WriteString(filepath.ToSlash(rel) + ": " + string(content) + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestActionCheck(t *testing.T) {
	t.Parallel()
	const captures = "MCPTRAIL_CAPTURES=  captures/run one.jsonl \r\n\n more\n"
	for _, tc := range []struct {
		name     string
		fakeCode string
		env      []string
		want     run
	}{
		{"clean", "0", []string{captures}, run{0,
			[]string{"check", "--format", "sarif", "--", "captures/run one.jsonl", "more"},
			"mcptrail.sarif: " + fakeSARIF + "\n", "sarif=mcptrail.sarif\nexit-code=0\n"}},
		{"findings", "1", []string{captures, "MCPTRAIL_FAIL_ON=warning", "MCPTRAIL_BASELINE=ci/base line.json",
			"MCPTRAIL_ARGS=--max-duration 5s  --expect-tool search", "MCPTRAIL_SARIF=out/check.sarif"}, run{1,
			[]string{"check", "--format", "sarif", "--fail-on", "warning", "--baseline", "ci/base line.json",
				"--max-duration", "5s", "--expect-tool", "search", "--", "captures/run one.jsonl", "more"},
			"out/check.sarif: " + fakeSARIF + "\n", "sarif=out/check.sarif\nexit-code=1\n"}},
		{"unreadable input", "3", []string{captures}, run{3,
			[]string{"check", "--format", "sarif", "--", "captures/run one.jsonl", "more"},
			"", "exit-code=3\n"}},
		{"usage", "2", []string{captures, "MCPTRAIL_ARGS=--bogus"}, run{2,
			[]string{"check", "--format", "sarif", "--bogus", "--", "captures/run one.jsonl", "more"},
			"", "exit-code=2\n"}},
		{"report not writable", "0", []string{captures, "MCPTRAIL_SARIF=/dev/null/report.sarif"}, run{1, nil,
			"", "exit-code=1\n"}},
		{"no captures", "0", []string{"MCPTRAIL_CAPTURES= \n \n"}, run{2, nil, "", "exit-code=2\n"}},
		{"sarif path of two lines", "0", []string{captures, "MCPTRAIL_SARIF=a\nsarif=/etc/passwd"}, run{2, nil, "", "exit-code=2\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := runActionCheck(t, tc.fakeCode, tc.env...)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(run{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestActionRunsTheScript keeps action.yml and the script together: the
// action runs this script, installs mcptrail from its own checkout and
// uploads the report the script names.
func TestActionRunsTheScript(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	action := string(b)
	for _, want := range []string{
		"using: composite",
		`run: '"$GITHUB_ACTION_PATH/scripts/action-check.sh"'`,
		"run: go install ./cmd/mcptrail",
		"uses: github/codeql-action/upload-sarif@",
		"sarif_file: ${{ steps.check.outputs.sarif }}",
		`exit "${CODE:-1}"`,
	} {
		if !strings.Contains(action, want) {
			t.Errorf("action.yml lacks %q", want)
		}
	}
	fi, err := os.Stat("action-check.sh")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&0o111 == 0 {
		t.Errorf("action-check.sh is not executable: %v", fi.Mode())
	}
}
