package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestMain lets the test binary itself serve as the mcptrail command in the
// scripts (testscript.Main puts it on PATH under that name), so the scripts
// need no `go build` and run under -short too.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcptrail": func() { os.Exit(Main(context.Background(), os.Args[1:], System())) },
		// peer is a test server (testbin.Peer) that runs on Windows too.
		"peer": func() { os.Exit(testbin.Peer(os.Args[1:])) },
	})
}

// TestScript runs the CLI scripts in testdata/script with mcptrail on PATH.
// Besides the standard commands, scripts can use `exitcode N PROG
// [ARGS...]`, which runs PROG and requires exit status N (its stdout and
// stderr are then checked as after exec); `expand SRC DST`, which writes
// SRC to DST with its $VARS (such as $WORK) replaced; and `sqlexec FILE
// STATEMENT...`, which runs SQL on an SQLite database. The condition [wine]
// holds when MCPTRAIL_WINE is set: .ci/wine/run sets it when it runs the
// Windows test binary under Wine, which cannot do everything Windows does.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Condition: func(cond string) (bool, error) {
			if cond == "wine" {
				return os.Getenv("MCPTRAIL_WINE") != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("MCPTRAIL_HOME", filepath.Join(env.WorkDir, "state"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":   cmdExitCode,
			"expand":     cmdExpand,
			"sqlexec":    cmdSQLExec,    // script_sqlite_test.go
			"isjson":     cmdIsJSON,     // script_json_test.go
			"htmlframes": cmdHTMLFrames, // script_htmlframes_test.go
		},
	})
}

func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expand SRC DST")
	}
	out := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644); err != nil {
		ts.Fatalf("expand: %v", err)
	}
}

func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
