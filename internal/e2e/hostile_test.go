package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// evil is the shared hostile text as a raw line, argv and a file can
// carry it (testbin.EvilLine), evilName the same for a file or directory
// name, and evilShown part of it as termtext shows it.
var (
	evil      = testbin.EvilLine
	evilName  = testbin.EvilName
	evilShown = testbin.EvilShown
)

// hostileTranscript is a 2025-11-25 session in which the server puts evil
// in every field that reaches a screen: its name and version, tool names,
// error messages, an elicitation's message, field, url and elicitation id,
// a notification's method, a stderr line and a stdout line that is not
// JSON; the client puts it in method names, a resource uri, a prompt name
// and a request id.
func hostileTranscript() string {
	// Inside JSON, a raw 0x9b byte makes the whole frame invalid: the
	// valid frames carry evil without it, and one frame carries it.
	valid := testbin.EvilUTF8
	e := testbin.JSONString(valid)
	x := func(s string) string { return testbin.JSONString(s + valid) }
	frames := []struct{ dir, raw string }{
		{"c2s", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":` + x("client") + `,"version":` + e + `}}}`},
		{"s2c", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":` + x("server") + `,"version":` + x("1.0") + `}}}`},
		{"c2s", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"stderr", "server log " + evil},
		{"c2s", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"s2c", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":` + x("tool") + `,"inputSchema":{"type":"object"}}]}}`},
		{"c2s", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":` + x("tool") + `,"arguments":{}}}`},
		{"s2c", `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":` + x("boom") + `}}`},
		{"c2s", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":` + x("file:///") + `}}`},
		{"s2c", `{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":` + x("no resource ") + `}}`},
		{"c2s", `{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":` + x("prompt") + `}}`},
		{"s2c", `{"jsonrpc":"2.0","id":4,"result":{"messages":[]}}`},
		{"c2s", `{"jsonrpc":"2.0","id":5,"method":` + x("evil/") + `}`},
		{"s2c", `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":` + x("Method not found: ") + `}}`},
		{"c2s", `{"jsonrpc":"2.0","id":` + x("id-") + `,"method":"tools/call","params":{"name":` + x("ask") + `,"arguments":{}}}`},
		{"s2c", `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"form","message":` + e + `,"requestedSchema":{"type":"object","properties":{` + x("field") + `:{"type":` + x("string") + `}}}}}`},
		{"c2s", `{"jsonrpc":"2.0","id":0,"result":{"action":` + x("accept") + `,"content":{}}}`},
		{"s2c", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","elicitationId":` + e + `,"url":` + testbin.JSONString("https://evil"+valid+"/pay?x="+valid) + `,"message":` + e + `}}`},
		{"c2s", `{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}`},
		{"s2c", `{"jsonrpc":"2.0","method":` + x("notifications/") + `,"params":{}}`},
		{"s2c", "not json " + evil},
		{"s2c", `{"jsonrpc":"2.0","method":` + testbin.JSONString("notifications/"+evil) + `}`},
		{"s2c", `{"jsonrpc":"2.0","id":` + x("id-") + `,"result":{"content":[{"type":"text","text":` + e + `}]}}`},
	}
	var b strings.Builder
	for _, f := range frames {
		line := map[string]any{"dir": f.dir, "after_ms": 0}
		if utf8.ValidString(f.raw) {
			line["raw"] = f.raw
		} else {
			line["raw_b64"] = []byte(f.raw)
		}
		j, err := json.Marshal(line)
		if err != nil {
			panic(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// hostileOutput is one command whose output may reach a terminal. Adding
// a command to TestHostileServer is one line in hostileOutputs.
type hostileOutput struct {
	name string
	args []string
	// stdout is what the command writes there: "text" for terminal text,
	// "json" for one JSON value, "jsonl" for one per line, "" for nothing.
	stdout string
	// exit is the wanted exit status.
	exit int
	// shown, when set, must appear in stdout or stderr: the hostile text
	// reached the output, escaped.
	shown string
	// ownHome runs the command with a state directory of its own, when
	// it would add a session that the other commands must not see.
	ownHome bool
}

// hostileOutputs lists the commands TestHostileServer runs against the
// hostile session; capture is its capture file, dir a hostile directory.
func hostileOutputs(capture, dir string) []hostileOutput {
	missing := filepath.Join(dir, "missing"+evilName+".jsonl")
	return []hostileOutput{
		{name: "export text", args: []string{"export", "-T", "text"}, stdout: "text", shown: evilShown},
		{name: "export text by path", args: []string{"export", "-T", "text", capture}, stdout: "text", shown: evilShown},
		{name: "export json", args: []string{"export", "-T", "json"}, stdout: "json"},
		{name: "export events", args: []string{"export", "-T", "events"}, stdout: "jsonl"},
		{name: "export otlp", args: []string{"export", "-T", "otlp"}, stdout: "jsonl"},
		{name: "sessions", args: []string{"sessions"}, stdout: "text"}, // cut to 100 columns: the label's escape is cut
		{name: "sessions wide", args: []string{"sessions", "--wide"}, stdout: "text", shown: evilShown},
		{name: "sessions json", args: []string{"sessions", "--json"}, stdout: "json"},
		{name: "ledger", args: []string{"ledger"}, stdout: "text", shown: evilShown},
		{name: "ledger all", args: []string{"ledger", "--all"}, stdout: "text", shown: evilShown},
		{name: "ledger json", args: []string{"ledger", "--json"}, stdout: "json"},
		{name: "ledger json all", args: []string{"ledger", "--json", "--all"}, stdout: "json"},
		{name: "rules", args: []string{"rules"}, stdout: "text"},
		{name: "rules json", args: []string{"rules", "--json"}, stdout: "json"},
		{name: "rules unknown id", args: []string{"rules", "id" + evil}, exit: 2},
		{name: "export missing path", args: []string{"export", missing}, exit: 3, shown: evilShown},
		{name: "ledger missing path", args: []string{"ledger", missing}, exit: 3, shown: evilShown},
		{name: "export unknown session", args: []string{"export", "id" + evil}, exit: 3},
		{name: "export unknown format", args: []string{"export", "-T", "fmt" + evil, capture}, exit: 2},
		{name: "unknown flag", args: []string{"export", "--x" + evil}, exit: 2},
		{name: "unknown command", args: []string{"cmd" + evil}, exit: 2},
		{name: "complete session ids", args: []string{"__complete", "export", ""}, stdout: "text", shown: evilShown},
		{name: "server not found", args: []string{"--label", "l\n" + evil, "--", filepath.Join(dir, "server"+evilName)}, exit: 127, shown: evilShown, ownHome: true},
		{name: "capture under a file", args: []string{"--capture", filepath.Join(capture, "c"+evilName), "--", "true"}, exit: 1, shown: evilShown, ownHome: true},
	}
}

// TestHostileServer plays the hostile transcript through the real proxy,
// with a hostile label, a hostile state directory and a hostile argument
// in the server's command, then runs every command that prints what it
// captured, and every error path that prints a path or an argument, and
// checks that nothing that could drive a terminal reaches stdout or
// stderr. The proxy's own stdout and stderr are left out: they relay the
// server's bytes to the client, unchanged by design.
func TestHostileServer(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "dir"+evilName+"\nfake row")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "hostile"+evilName+".transcript.jsonl")
	if err := os.WriteFile(script, []byte(hostileTranscript()), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	env := []string{"MCPTRAIL_HOME=" + home}
	playHostile(t, env, script, "--label", "label"+evil+"\nfake row")
	// Not filepath.Glob: home holds glob metacharacters.
	files, err := os.ReadDir(filepath.Join(home, "sessions"))
	if err != nil || len(files) != 1 {
		t.Fatalf("sessions: %v, %v; want one capture", files, err)
	}
	for _, o := range hostileOutputs(filepath.Join(home, "sessions", files[0].Name()), dir) {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			env := env
			if o.ownHome {
				env = []string{"MCPTRAIL_HOME=" + filepath.Join(t.TempDir(), "home"+evilName)}
			}
			stdout, stderr, code := runProxy(t, env, "", o.args...)
			if code != o.exit {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, o.exit, stderr)
			}
			checkTerminalSafe(t, "stdout", []byte(stdout))
			checkTerminalSafe(t, "stderr", []byte(stderr))
			checkStdoutShape(t, o.stdout, stdout)
			if o.shown != "" && !strings.Contains(stdout+stderr, o.shown) {
				t.Errorf("neither stdout nor stderr shows %s; stdout:\n%s\nstderr:\n%s", o.shown, stdout, stderr)
			}
		})
	}
	t.Run("sessions has one row", func(t *testing.T) {
		t.Parallel()
		stdout, _, _ := runProxy(t, env, "", "sessions")
		if n := strings.Count(stdout, "\n"); n != 2 {
			t.Errorf("sessions wrote %d lines, want a header and one row:\n%s", n, stdout)
		}
	})
}

// TestHostileDemo runs the demo with a hostile state directory, which its
// summary names.
func TestHostileDemo(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home"+evilName+"\n")
	stdout, stderr, code := runProxy(t, []string{"MCPTRAIL_HOME=" + home}, "", "demo", "--scale", "0")
	if code != 0 {
		t.Fatalf("demo exited %d; stderr:\n%s", code, stderr)
	}
	checkTerminalSafe(t, "stdout", []byte(stdout))
	checkTerminalSafe(t, "stderr", []byte(stderr))
	if !strings.Contains(stdout, "Capture: "+filepath.Dir(home)) || !strings.Contains(stdout, evilShown) {
		t.Errorf("demo does not name its capture, escaped:\n%s", stdout)
	}
}

// playHostile plays the client side of the transcript at script through
// `mcptrail args... -- mcptrail __replay-server script --scale 0`.
func playHostile(t *testing.T, env []string, script string, args ...string) {
	t.Helper()
	tr, err := transcript.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	testbin.PlayThroughProxy(t, bins.mcptrail, tr, script, env, args...)
}

// checkTerminalSafe fails t when out holds a byte below 0x20 other than
// newline and tab, a code point from 0x7f to 0x9f, a bidi control, or
// invalid UTF-8 (a raw 0x9b byte is CSI to an 8-bit terminal).
func checkTerminalSafe(t *testing.T, what string, out []byte) {
	t.Helper()
	bad := 0
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRune(out[i:])
		if (r == utf8.RuneError && n == 1) || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || isBidiControl(r) {
			if bad++; bad <= 5 {
				lo, hi := max(i-30, 0), min(i+30, len(out))
				t.Errorf("%s holds %q at byte %d: ...%s...", what, out[i:i+n], i, strconv.Quote(string(out[lo:hi])))
			}
		}
		i += n
	}
}

func isBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// checkStdoutShape checks stdout against what the command should write.
func checkStdoutShape(t *testing.T, shape, stdout string) {
	t.Helper()
	switch shape {
	case "":
		if stdout != "" {
			t.Errorf("stdout: %q, want nothing", stdout)
		}
	case "text":
		if stdout == "" {
			t.Error("stdout is empty")
		}
	case "json":
		if !json.Valid([]byte(stdout)) {
			t.Errorf("stdout is not valid JSON:\n%s", stdout)
		}
	case "jsonl":
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		for i, l := range lines {
			if !json.Valid([]byte(l)) {
				t.Errorf("stdout line %d is not valid JSON: %s", i+1, l)
			}
		}
		if len(lines) < 2 {
			t.Errorf("stdout has %d lines, want the session's events", len(lines))
		}
	}
}
