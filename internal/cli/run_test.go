package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The runX tests run each large command's logic over a fake Factory
// (factory_test.go): in-memory streams, a temporary state directory and a
// configuration value, with the fixtures of the CLI scripts.

// TestRunTools: the catalog table of a capture file, the newest session
// of the state directory when no argument names one, and a pinned
// baseline; the capture is read through the Factory's LoadSnapshot.
func TestRunTools(t *testing.T) {
	t.Parallel()
	files := scriptFiles(t, "tools.txtar")
	tf := newTestFactory(t, nil)
	loads := 0
	tf.LoadSnapshot = func(r *capture.Reader, red redact.Redactor) (*store.Snapshot, error) {
		loads++
		return loadSnapshot(r, red)
	}
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.jsonl", files["v1.jsonl"])

	if err := runTools(&toolsOptions{Factory: tf.Factory, input: v1}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(files["tools.txt"]), tf.out.String()); diff != "" {
		t.Errorf("tools v1.jsonl (-want +got):\n%s", diff)
	}
	if tf.errOut.Len() > 0 || loads != 1 {
		t.Errorf("stderr %q, %d loads; want none, 1", tf.errOut, loads)
	}

	sessions := filepath.Join(tf.state, "sessions")
	writeFile(t, sessions, "20260728T090000Z-fixture-aaaa000000000001.jsonl", files["v1.jsonl"])
	writeFile(t, sessions, "20260730T090000Z-fixture-aaaa000000000003.jsonl", files["v2.jsonl"])
	tf.out.Reset()
	if err := runTools(&toolsOptions{Factory: tf.Factory}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tf.out.String(), "\nwipe ") || strings.Contains(tf.out.String(), "legacy_report") {
		t.Errorf("tools with no argument: want the newest session's catalog (wipe, no legacy_report), got\n%s", tf.out)
	}

	base := filepath.Join(dir, "base.json")
	tf.out.Reset()
	if err := runTools(&toolsOptions{Factory: tf.Factory, input: "aaaa000000000001", save: base, asJSON: true}); err != nil {
		t.Fatal(err)
	}
	if want := "mcptrail: pinned 3 tools of session aaaa000000000001 in " + base + "\n"; tf.errOut.String() != want {
		t.Errorf("stderr = %q, want %q", tf.errOut, want)
	}
	if b, err := rules.ReadToolBaseline(mustOpen(t, base)); err != nil || b.Session != "aaaa000000000001" || len(b.Tools) != 3 {
		t.Errorf("the pinned baseline: %+v, %v", b, err)
	}
	if !strings.Contains(tf.out.String(), `"session": "aaaa000000000001"`) {
		t.Errorf("tools --json: no session member in\n%s", tf.out)
	}

	notools := writeFile(t, dir, "notools.jsonl", files["notools.jsonl"])
	err := runTools(&toolsOptions{Factory: tf.Factory, input: notools, save: filepath.Join(dir, "none.json")})
	if code := exitCodeFor(err); code != ExitInput || !strings.Contains(err.Error(), "nothing to pin") {
		t.Errorf("pinning a session that never listed its tools: %v (exit %d), want nothing to pin (exit %d)", err, code, ExitInput)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestRunExport: a session id prefix found in the state directory, the
// JSON and text formats into a file, a bad format, and an output that is
// the capture itself; the command takes its registry from the Factory's
// configuration.
func TestRunExport(t *testing.T) {
	t.Parallel()
	files := scriptFiles(t, "export.txtar")
	cfg := &config{rules: []fileRules{{file: configFile, rules: rules.Config{Disable: []string{"late-result"}}}}}
	tf := newTestFactory(t, cfg)
	capPath := writeFile(t, filepath.Join(tf.state, "sessions"), "20260728T090000Z-fixture-abcdef0123456789.jsonl", files["fixture.jsonl"])

	var got *exportOptions
	cmd := newExportCmd(tf.Factory, func(o *exportOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"-T", "text", "abcdef"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.format != "text" || got.input != "abcdef" || got.rules == nil || got.rules.Enabled("late-result") || got.red != nil {
		t.Errorf("export -T text abcdef: options %+v; want the text format, the input, the configured rules, no redactor", got)
	}

	out := filepath.Join(t.TempDir(), "out.json")
	if err := runExport(&exportOptions{Factory: tf.Factory, format: "json", input: "abcdef", output: out, rules: rules.Default()}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"session":{"id":"abcdef0123456789","label":"fixture"`) || !strings.Contains(string(b), `"calls":[`) {
		t.Errorf("export -T json -o out.json: got\n%.300s", b)
	}
	if err := runExport(&exportOptions{Factory: tf.Factory, format: "text", rules: rules.Default()}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tf.out.String(), "mcptrail session abcdef0123456789 (fixture)\n") {
		t.Errorf("export -T text: got\n%.300s", tf.out)
	}

	err = runExport(&exportOptions{Factory: tf.Factory, format: "yaml", rules: rules.Default()})
	if code := exitCodeFor(err); code != ExitUsage || !strings.Contains(err.Error(), `unknown export format "yaml"`) {
		t.Errorf("export -T yaml: %v (exit %d), want a usage error", err, code)
	}
	err = runExport(&exportOptions{Factory: tf.Factory, format: "json", input: capPath, output: capPath, rules: rules.Default()})
	if err == nil || exitCodeFor(err) != ExitUsage {
		t.Errorf("export -o the capture itself: %v, want a usage error", err)
	}
	if after, _ := os.ReadFile(capPath); string(after) != string(files["fixture.jsonl"]) {
		t.Errorf("export -o the capture itself changed the capture")
	}
}

// TestRunWrap: --dry-run prints the diff and writes nothing; wrap writes
// the wrapped entry after a backup; unwrap gives back the file byte for
// byte.
func TestRunWrap(t *testing.T) {
	t.Parallel()
	tf := newTestFactory(t, nil)
	dir := t.TempDir()
	orig := "{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"@example/server-github\"]}\n  }\n}\n"
	path := writeFile(t, dir, "claude_desktop_config.json", []byte(orig))
	wrap := func(wrap, dryRun bool) error {
		tf.out.Reset()
		tf.errOut.Reset()
		return runWrap(&wrapOptions{Factory: tf.Factory, wrap: wrap, args: []string{"github"},
			flags: wrapFlags{config: path, dryRun: dryRun, mcptrail: "/opt/mcptrail"}})
	}

	if err := wrap(true, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tf.out.String(), `+    "github": {"command": "/opt/mcptrail", "args": ["--label", "github", "--", "npx", "-y", "@example/server-github"]}`) {
		t.Errorf("wrap --dry-run: no wrapped entry in the diff:\n%s", tf.out)
	}
	if want := path + ": github would be wrapped\n"; tf.errOut.String() != want {
		t.Errorf("wrap --dry-run: stderr %q, want %q", tf.errOut, want)
	}
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Errorf("wrap --dry-run wrote the file")
	}

	if err := wrap(true, false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"command": "/opt/mcptrail"`) {
		t.Errorf("wrap: the file is not wrapped:\n%s", b)
	}
	backups, _ := filepath.Glob(path + ".mcptrail-backup-*")
	if len(backups) != 1 {
		t.Fatalf("wrap: backups %q, want one", backups)
	}
	if bk, _ := os.ReadFile(backups[0]); string(bk) != orig {
		t.Errorf("wrap: the backup is not the original")
	}

	if err := wrap(false, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Errorf("unwrap: got\n%s\nwant the original\n%s", b, orig)
	}
	err := runWrap(&wrapOptions{Factory: tf.Factory, wrap: true, args: []string{"nosuch"}, flags: wrapFlags{config: path, mcptrail: "/opt/mcptrail"}})
	if code := exitCodeFor(err); code != ExitInput || !strings.Contains(err.Error(), `no MCP server named "nosuch"`) {
		t.Errorf("wrap nosuch: %v (exit %d), want not found", err, code)
	}
}

// TestRunReplay: the command line becomes the capture and the server
// command; --dry-run lists the plan the script's golden shows, starting
// nothing; standard input is refused.
func TestRunReplay(t *testing.T) {
	t.Parallel()
	files := scriptFiles(t, "replay.txtar")
	tf := newTestFactory(t, nil)
	plan := writeFile(t, t.TempDir(), "plan.jsonl", files["plan.jsonl"])

	var got *replayOptions
	cmd := newReplayCmd(tf.Factory, func(o *replayOptions) error { got = o; return nil })
	cmd.SetArgs([]string{plan, "--no-learn", "--", "srv", "--flag"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.input != plan || !cmp.Equal(got.server, []string{"srv", "--flag"}) || !got.flags.noLearn {
		t.Errorf("replay PLAN --no-learn -- srv --flag: input %q, server %q, noLearn %v", got.input, got.server, got.flags.noLearn)
	}

	opts := &replayOptions{Factory: tf.Factory, ctx: context.Background(), input: plan,
		flags: replayFlags{dryRun: true, slowerThan: "2x", timeout: time.Second, killAfter: time.Second}}
	if err := runReplay(opts); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(files["dry-run.golden"]), tf.out.String()); diff != "" {
		t.Errorf("replay --dry-run (-want +got):\n%s", diff)
	}
	if entries, _ := os.ReadDir(filepath.Join(tf.state, "sessions")); len(entries) > 0 {
		t.Errorf("replay --dry-run wrote %d captures", len(entries))
	}

	opts.input = "-"
	if err := runReplay(opts); exitCodeFor(err) != ExitUsage || !strings.Contains(err.Error(), "not standard input") {
		t.Errorf("replay -: %v, want a usage error", err)
	}
	opts.input, opts.flags.only = plan, []string{"search"}
	if err := runReplay(opts); exitCodeFor(err) != ExitUsage || !strings.Contains(err.Error(), `--only "search": want tool:NAME`) {
		t.Errorf("replay --only search: %v, want a usage error", err)
	}
}

// TestRunProxy: a real server process (cat) gets our stdin, its answer is
// our stdout byte for byte, and the session is captured in the state
// directory under the configuration's label.
func TestRunProxy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the server is cat")
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat on PATH")
	}
	t.Parallel()
	tf := newTestFactory(t, &config{Label: "fromconfig"})
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}` + "\n"
	tf.IOStreams.In = strings.NewReader(line)
	// The command line makes the options (the flags' defaults among them).
	var opts *proxyOptions
	cmd := newProxyCmd(tf.Factory, func(o *proxyOptions) error { opts = o; return nil })
	cmd.SetArgs([]string{"--", cat})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(opts.command, []string{cat}) || opts.flags.killAfter != 5*time.Second {
		t.Fatalf("mcptrail -- cat: command %q, --kill-after %v", opts.command, opts.flags.killAfter)
	}
	opts.ctx = context.Background()
	if err := runProxy(opts); err != nil {
		t.Fatalf("runProxy: %v (stderr %q)", err, tf.errOut)
	}
	if tf.out.String() != line {
		t.Errorf("stdout = %q, want the server's bytes %q", tf.out, line)
	}
	paths, _ := filepath.Glob(filepath.Join(tf.state, "sessions", "*-fromconfig-*.jsonl"))
	if len(paths) != 1 {
		entries, _ := os.ReadDir(filepath.Join(tf.state, "sessions"))
		t.Fatalf("captures labelled fromconfig: %q; the sessions directory holds %v", paths, entries)
	}
	r, err := capture.NewReader(mustOpen(t, paths[0]))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := loadSnapshot(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Session.Label != "fromconfig" || snap.Counts.Frames != 2 {
		t.Errorf("the capture: label %q, %d frames; want fromconfig, 2 (the request and its echo)", snap.Session.Label, snap.Counts.Frames)
	}

	opts.flags.noCapture, opts.flags.capture = true, "x.jsonl"
	if err := runProxy(opts); exitCodeFor(err) != ExitUsage || !strings.Contains(err.Error(), "--capture and --no-capture") {
		t.Errorf("--capture with --no-capture: %v, want a usage error", err)
	}
}
