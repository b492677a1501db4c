package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// tableStreams are the streams of a terminal width columns wide, whose
// environment is env.
func tableStreams(width int, env map[string]string) (*IOStreams, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &IOStreams{
		In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
		Getenv:        func(k string) string { return env[k] },
		Now:           func() time.Time { return time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC) },
		OutIsTerminal: true, OutWidth: width,
	}, &out, &errOut
}

// TestTableGoldens renders the ledger, sessions and rules tables of the
// state directory testdata/tables/state (the demo's capture, and the
// ledger script's seed and legacy sessions) on terminals 80 and 120
// columns wide, with colour on and off.
func TestTableGoldens(t *testing.T) {
	t.Parallel()
	commands := []struct {
		name string
		args []string
	}{
		{"ledger", []string{"ledger", "--all"}},
		{"sessions", []string{"sessions"}},
		{"rules", []string{"rules"}},
	}
	for _, c := range commands {
		for _, width := range []int{80, 120} {
			for _, color := range []string{"never", "always"} {
				name := filepath.Join("testdata", "tables", c.name+"-"+strconv.Itoa(width)+"-"+color+".golden")
				t.Run(filepath.Base(name), func(t *testing.T) {
					t.Parallel()
					ios, out, errOut := tableStreams(width, map[string]string{"MCPTRAIL_HOME": filepath.Join("testdata", "tables", "state")})
					args := append([]string{"--color", color}, c.args...)
					if code := Main(context.Background(), args, ios); code != 0 || errOut.Len() > 0 {
						t.Fatalf("mcptrail %v: status %d, stderr:\n%s", args, code, errOut.String())
					}
					checkTableLines(t, out.String(), width, color == "always")
					golden.Check(t, name, out.String())
				})
			}
		}
	}
}

// checkTableLines checks that every line of a table fits width and holds
// an SGR sequence only when colour is on.
func checkTableLines(t *testing.T, out string, width int, color bool) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		plain := stripSGR(line)
		if n := termtable.Width(plain); n > width {
			t.Errorf("line is %d wide, more than %d: %q", n, width, line)
		}
		if !color && plain != line {
			t.Errorf("an SGR sequence with colour off: %q", line)
		}
	}
	if color && !strings.Contains(out, "\x1b[") {
		t.Error("colour on, but no SGR sequence")
	}
}

// stripSGR removes the SGR sequences termtable writes.
func stripSGR(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return b.String() + s[i:]
		}
		s = s[i+j+1:]
	}
}

// TestColorAndWidth: auto colours a terminal unless NO_COLOR is set and
// not empty; always and never win; the width is unlimited with --wide,
// else the terminal's, else $COLUMNS, else 100.
func TestColorAndWidth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      []string
		terminal  bool
		termWidth int
		env       map[string]string
		wantColor bool
		wantWidth int
	}{
		{"a terminal", nil, true, 132, nil, true, 132},
		{"a pipe", nil, false, 0, nil, false, 100},
		{"NO_COLOR on a terminal", nil, true, 80, map[string]string{"NO_COLOR": "1"}, false, 80},
		{"NO_COLOR empty", nil, true, 80, map[string]string{"NO_COLOR": ""}, true, 80},
		{"always over NO_COLOR, to a pipe", []string{"--color", "always"}, false, 0, map[string]string{"NO_COLOR": "1"}, true, 100},
		{"never on a terminal", []string{"--color=never"}, true, 80, nil, false, 80},
		{"auto", []string{"--color", "auto"}, true, 80, nil, true, 80},
		{"the terminal over a stale COLUMNS", nil, true, 80, map[string]string{"COLUMNS": "200"}, true, 80},
		{"COLUMNS on a terminal of unknown width", nil, true, 0, map[string]string{"COLUMNS": "70"}, true, 70},
		{"COLUMNS to a pipe", nil, false, 0, map[string]string{"COLUMNS": " 72 "}, false, 72},
		{"COLUMNS not a number", nil, false, 0, map[string]string{"COLUMNS": "wide"}, false, 100},
		{"COLUMNS zero", nil, true, 90, map[string]string{"COLUMNS": "0"}, true, 90},
		{"a terminal of unknown width", nil, true, 0, nil, true, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ios, _, errOut := tableStreams(tt.termWidth, tt.env)
			ios.OutIsTerminal = tt.terminal
			root := newRootCmd(ios)
			if err := root.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			if got := ios.colorOn(); got != tt.wantColor {
				t.Errorf("colorOn() = %v, want %v", got, tt.wantColor)
			}
			if got := ios.tableWidth(false); got != tt.wantWidth {
				t.Errorf("tableWidth(false) = %d, want %d", got, tt.wantWidth)
			}
			if got := ios.tableWidth(true); got != 0 {
				t.Errorf("tableWidth(true) = %d, want 0", got)
			}
			if errOut.Len() > 0 {
				t.Errorf("stderr: %s", errOut.String())
			}
		})
	}
}

// TestExportTextLayout: -o FILE is laid out as off a terminal, $COLUMNS
// (else 100) columns or whole (--wide), coloured only with --color
// always, whatever stdout is.
func TestExportTextLayout(t *testing.T) {
	t.Parallel()
	ios, _, _ := tableStreams(80, map[string]string{"COLUMNS": "60"})
	cases := []struct {
		output string
		wide   bool
		color  colorMode
		want   textexport.Layout
	}{
		{"", false, "", textexport.Layout{Width: 80, Color: true}}, // stdout is the 80-column terminal
		{"-", true, "", textexport.Layout{Width: 0, Color: true}},
		{"out.txt", false, "", textexport.Layout{Width: 60}},
		{"out.txt", true, colorNever, textexport.Layout{}},
		{"out.txt", false, colorAlways, textexport.Layout{Width: 60, Color: true}},
	}
	for _, c := range cases {
		ios.color = c.color
		if got := ios.exportTextLayout(c.output, c.wide); got != c.want {
			t.Errorf("exportTextLayout(%q, %v) with --color %q = %+v, want %+v", c.output, c.wide, c.color, got, c.want)
		}
	}
}
