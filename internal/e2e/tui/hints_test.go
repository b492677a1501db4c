package tui_test

import (
	"github.com/mcptrail/mcptrail/internal/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestFooterHintsAndReveal runs `mcptrail demo` into a state directory,
// then the real TUI in tmux at 80 columns: the hub, the stream, the
// inspector and every overlay show their key hints on the last line; in
// the ledger, v reveals the answer the user gave (read from the capture,
// marked local only); e h writes the HTML report to the working
// directory and says where.
func TestFooterHintsAndReveal(t *testing.T) {
	home := demoHome(t)
	work := t.TempDir()
	tm := testbin.StartTerm(t, 80, 30, []string{"MCPTRAIL_HOME=" + home}, "sh", "-c", "cd '"+work+"' && exec "+bins.mcptrail)
	last := func(re string) {
		t.Helper()
		tm.WaitFor(`(?m)^`+re+`.*\s*\z`, 10*time.Second)
	}
	// The hub opens on the newest (the only) session, selected.
	tm.WaitFor(`> .*demo`, 10*time.Second)
	last(`enter open\s+/ filter`)
	tm.Keys("Enter")
	tm.WaitFor(`stream · demo · 9 calls \(5 more rounds\) · 1 server request · p50 `, 10*time.Second)
	last(`row \d+/\d+ FOLLOW\s+enter inspect\s+/ filter`)
	tm.Keys("Enter")
	last(`.*pane.*fold.*search`)
	tm.Keys("Escape")
	last(`row \d+/\d+`)
	for _, o := range []struct{ key, title, hint string }{
		{"l", `Elicitation ledger asked 6`, `enter jump\s+v reveal answer`},
		{"f", `(?i)findings`, `enter jump`},
		{"c", `(?i)capabilities`, `esc/q close`},
		{"t", `(?i)tools`, `esc/q close`},
		{"?", `(?i)keys|help`, `esc`},
	} {
		tm.Keys(o.key)
		tm.WaitFor(o.title, 10*time.Second)
		last(`.*` + o.hint)
		if o.key == "l" {
			tm.Keys("v")
			tm.WaitFor(`revealed \(local only\) accept \{"username":"ada"`, 10*time.Second)
		}
		tm.Keys("Escape")
		last(`row \d+/\d+`)
	}
	tm.Keys("e")
	tm.WaitFor(`h html report`, 10*time.Second)
	tm.Keys("h")
	tm.WaitFor(`exported to \S+\.html`, 30*time.Second)
	m := regexp.MustCompile(`exported to (\S+\.html)`).FindStringSubmatch(tm.Screen())
	if m == nil {
		t.Fatalf("no file name on screen:\n%s", tm.Screen())
	}
	if fi, err := os.Stat(filepath.Join(work, m[1])); err != nil || fi.Size() == 0 {
		t.Errorf("the report %s: %v", m[1], err)
	}
	tm.Keys("q")
}

// TestAnswerColumn opens the demo session at 140 columns: the stream's
// answer column shows what came back, a result's text read from the
// capture and a tool error's.
func TestAnswerColumn(t *testing.T) {
	home := demoHome(t)
	tm := testbin.StartTerm(t, 140, 20, []string{"MCPTRAIL_HOME=" + home}, bins.mcptrail, "open")
	tm.WaitFor(`(?s)answer\n.*create_account.*account ada created.*get_weather.*error: no such city`, 10*time.Second)
	tm.Keys("q")
}

// demoHome returns a fresh state directory holding one demo session,
// played off a terminal.
func demoHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	demo := exec.Command(bins.mcptrail, "demo")
	demo.Env = append(demo.Environ(), "MCPTRAIL_HOME="+home, "NO_COLOR=1")
	demo.Dir = home
	if out, err := demo.CombinedOutput(); err != nil {
		t.Fatalf("mcptrail demo: %v\n%s", err, out)
	}
	return home
}
