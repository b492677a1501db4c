package tui_test

import (
	"github.com/mcptrail/mcptrail/internal/testbin"
	"regexp"
	"testing"
	"time"
)

// TestDemoOpensTheTUI: `mcptrail demo` on a terminal plays the session
// inside the TUI, which follows it live to its last call; q quits and the
// summary, led by the ledger and ending with the next commands, is printed.
func TestDemoOpensTheTUI(t *testing.T) {
	home := t.TempDir()
	// The shell keeps the pane open after mcptrail exits, to read the summary.
	tm := testbin.StartTerm(t, 120, 40, []string{"MCPTRAIL_HOME=" + home}, "sh", "-c", bins.mcptrail+" demo; echo demo-exit=$?; sleep 60")
	tm.WaitFor(`stream · demo`, 15*time.Second)
	tm.WaitFor(`book_table`, 20*time.Second) // the script's last call: the TUI followed it
	tm.Keys("q")
	tm.WaitFor(`demo-exit=0`, 20*time.Second)
	screen := tm.Screen()
	for _, want := range []string{
		`(?m)^  delete_project +form +Type the project name to delete it +decline`,
		`(?m)^9 calls \(5 more rounds\), 1 server request`,
		`(?m)^  mcptrail export -T html -o demo\.html`,
	} {
		if !regexp.MustCompile(want).MatchString(screen) {
			t.Errorf("after q the terminal does not show %q:\n%s", want, screen)
		}
	}
}

// TestDemoQuitEarly: q before the script ends leaves the demo playing to
// its end, says so, and prints the whole summary.
func TestDemoQuitEarly(t *testing.T) {
	home := t.TempDir()
	tm := testbin.StartTerm(t, 120, 40, []string{"MCPTRAIL_HOME=" + home}, "sh", "-c", bins.mcptrail+" demo; echo demo-exit=$?; sleep 60")
	tm.WaitFor(`stream · demo .*LIVE`, 15*time.Second) // still playing: ~2.4 s of script in all
	tm.Keys("q")
	tm.WaitFor(`demo-exit=0`, 20*time.Second)
	screen := tm.Screen()
	for _, want := range []string{
		`still playing; its summary follows when it ends`,
		`(?m)^  book_table +form +How many guests\? +accept`,
		`(?m)^9 calls \(5 more rounds\), 1 server request`,
	} {
		if !regexp.MustCompile(want).MatchString(screen) {
			t.Errorf("after an early q the terminal does not show %q:\n%s", want, screen)
		}
	}
}
