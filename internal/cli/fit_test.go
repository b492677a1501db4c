package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// nameHeaders are the headings of the columns a person reads: names and
// messages, which keep at least termtable.NameMin characters at 80.
var nameHeaders = []string{"TOOL", "QUESTION", "NAME", "MESSAGE", "TARGET", "ROOT", "LABEL"}

// TestTablesFit writes stats --by question, tools, ledger and export -T
// text of the demo session and of a session of long hostile names to a
// pipe with COLUMNS=80 and COLUMNS=120, and checks, besides the goldens,
// that no line passes the width and that every name or message column
// keeps termtable.NameMin characters or holds its cells whole.
func TestTablesFit(t *testing.T) {
	t.Parallel()
	demo := filepath.Join("testdata", "tables", "state", "sessions", "20261130T181247.381109Z-demo-356fad4c62737225.jsonl")
	sessions := []struct {
		name, file string
		commands   []string
	}{
		{"demo", demo, []string{"stats", "ledger", "export"}},
		{"hostile", "", []string{"stats", "tools", "ledger", "export"}},
	}
	for _, s := range sessions {
		for _, command := range s.commands {
			for _, width := range []int{80, 120} {
				name := "fit-" + s.name + "-" + command + "-" + strconv.Itoa(width)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					home := t.TempDir()
					dir := filepath.Join(home, "sessions")
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					data := []byte(hostileCapture())
					base := "20260728T100000Z-hostile-badbad0000000001.jsonl"
					if s.file != "" {
						var err error
						if data, err = os.ReadFile(s.file); err != nil {
							t.Fatal(err)
						}
						base = filepath.Base(s.file)
					}
					file := filepath.Join(dir, base)
					if err := os.WriteFile(file, data, 0o644); err != nil {
						t.Fatal(err)
					}
					args := map[string][]string{
						"stats":  {"stats", "--by", "question"},
						"tools":  {"tools", file},
						"ledger": {"ledger", file},
						"export": {"export", "-T", "text", file},
					}[command]
					var out, errOut bytes.Buffer
					env := map[string]string{"MCPTRAIL_HOME": home, "COLUMNS": strconv.Itoa(width)}
					ios := &IOStreams{
						In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
						Getenv: func(k string) string { return env[k] },
						Now:    func() time.Time { return time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC) },
					}
					if code := Main(context.Background(), args, ios); code != 0 || errOut.Len() > 0 {
						t.Fatalf("mcptrail %v: status %d, stderr:\n%s", args, code, errOut.String())
					}
					got := strings.ReplaceAll(out.String(), home, "$HOME")
					checkFit(t, got, width)
					golden.Check(t, filepath.Join("testdata", "tables", name+".golden"), got)
				})
			}
		}
	}
}

// headerLine is a table's heading line: capitals, digits and the few
// signs headings use, in two columns or more.
var headerLine = regexp.MustCompile(`^ *[A-Z#][A-Z0-9_/%#()-]*( +[A-Z#][A-Z0-9_/%#() -]*)+$`)

// checkFit checks that no line of out passes width (the command line in
// the session section excepted: it is a record, not a table, and names a
// temp path) and that, in every table, each name column is at least
// NameMin wide at 80 columns or cuts none of its cells.
func checkFit(t *testing.T, out string, width int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, line := range lines {
		if n := termtable.Width(line); n > width && !strings.HasPrefix(line, "  command ") && !strings.Contains(line, " records, ") {
			t.Errorf("line %d is %d wide, more than %d: %q", i+1, n, width, line)
		}
		if !headerLine.MatchString(line) {
			continue
		}
		starts := headerStarts(line)
		for j, st := range starts {
			if !isNameHeader(st.name) {
				continue
			}
			end := width
			if j+1 < len(starts) {
				end = starts[j+1].col - 1
			}
			cut := false
			for _, row := range lines[i+1:] {
				if strings.TrimSpace(row) == "" {
					break
				}
				cut = cut || strings.Contains(ansi.Cut(row, st.col, end), "…")
			}
			if w := end - st.col; cut && w < termtable.NameMin {
				t.Errorf("column %s is %d wide and cut, want at least %d:\n%s", st.name, w, termtable.NameMin, line)
			}
		}
	}
}

type headerStart struct {
	name string
	col  int
}

// headerStarts returns the headings of a header line with the display
// column each starts at; headings are apart by one space or more.
func headerStarts(line string) []headerStart {
	var hs []headerStart
	for _, loc := range regexp.MustCompile(`[^ ]+( [(][^)]*[)])?`).FindAllStringIndex(line, -1) {
		hs = append(hs, headerStart{line[loc[0]:loc[1]], termtable.Width(line[:loc[0]])})
	}
	return hs
}

func isNameHeader(h string) bool {
	for _, n := range nameHeaders {
		if h == n || strings.HasPrefix(h, n+" (") {
			return true
		}
	}
	return false
}

// hostileCapture is a session whose server lists tools with long, wide
// and hostile names (testbin.EvilUTF8) and asks a hostile question.
func hostileCapture() string {
	evilTool := "evil_" + testbin.EvilUTF8 + "_tool_with_a_long_name"
	long := "a_tool_whose_name_goes_on_and_on_and_on_forever"
	wide := "東京の天気予報を取得するツール"
	question := testbin.EvilUTF8 + " Please confirm that you want to delete every project of the organisation"
	tool := func(name string) string {
		return `{"name":` + testbin.JSONString(name) + `,"description":"d","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}`
	}
	frame := func(seq int, ms int, dir, msg string) string {
		at := time.Date(2026, 7, 28, 10, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
		return `{"type":"frame","seq":` + strconv.Itoa(seq) + `,"time":"` + at.Format(time.RFC3339Nano) + `","dir":"` + dir +
			`","size":` + strconv.Itoa(len(msg)) + `,"msg":` + msg + "}\n"
	}
	return `{"type":"session","time":"2026-07-28T10:00:00Z","format":1,"session_id":"badbad0000000001","transport":"stdio","label":"hostile","command":["srv"]}` + "\n" +
		frame(1, 0, "c2s", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"c","version":"1"}}}`) +
		frame(2, 10, "s2c", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":`+testbin.JSONString(testbin.EvilUTF8+"server")+`,"version":"1"}}}`) +
		frame(3, 20, "c2s", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`) +
		frame(4, 30, "s2c", `{"jsonrpc":"2.0","id":1,"result":{"tools":[`+tool(evilTool)+`,`+tool(long)+`,`+tool(wide)+`]}}`) +
		frame(5, 40, "c2s", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":`+testbin.JSONString(evilTool)+`,"arguments":{"q":"x"}}}`) +
		frame(6, 50, "s2c", `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"form","message":`+testbin.JSONString(question)+`,"requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}`) +
		frame(7, 1250, "c2s", `{"jsonrpc":"2.0","id":0,"result":{"action":"decline"}}`) +
		frame(8, 1300, "s2c", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no"}]}}`) +
		frame(9, 1400, "c2s", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":`+testbin.JSONString(wide)+`,"arguments":{"q":"x"}}}`) +
		frame(10, 1500, "s2c", `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok"}]}}`) +
		`{"type":"end","time":"2026-07-28T10:00:02Z"}` + "\n"
}
