package clientconfig

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWrapCases covers the shapes the goldens do not: each wraps to want,
// and unwraps back to src.
func TestWrapCases(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		f               Format
		opts            Options
	}{
		{
			name: "empty args",
			src:  `{"mcpServers":{"a":{"command":"x","args":[ ]}}}`,
			want: `{"mcpServers":{"a":{"command":"/bin/mcptrail","args":[ "--label", "a", "--", "x"]}}}`,
		},
		{
			name: "args with only a comment",
			src:  "{\"servers\":{\"a\":{\"args\":[ // none yet\n],\"command\":\"x\"}}}",
			want: "{\"servers\":{\"a\":{\"args\":[ \"--label\", \"a\", \"--\", \"x\", // none yet\n],\"command\":\"/bin/mcptrail\"}}}",
		},
		{
			name: "capture template and escapes",
			src:  `{"mcpServers":{"a b":{"command":"C:\\x\\y.exe","args":["\u0041"]}}}`,
			want: `{"mcpServers":{"a b":{"command":"/bin/mcptrail","args":["--label", "a b", "--capture", "C:\\c\\{label}.jsonl", "--", "C:\\x\\y.exe", "\u0041"]}}}`,
			opts: Options{Capture: `C:\c\{label}.jsonl`},
		},
		{
			name: "a label and a template that are --",
			src:  `{"mcpServers":{"--":{"command":"x","args":["--"]}}}`,
			want: `{"mcpServers":{"--":{"command":"/bin/mcptrail","args":["--label", "--", "--capture", "--", "--", "x", "--"]}}}`,
			opts: Options{Capture: "--"},
		},
		{
			name: "BOM and CRLF",
			src:  "\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"a\": {\r\n      \"command\": \"x\"\r\n    }\r\n  }\r\n}\r\n",
			want: "\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"a\": {\r\n      \"command\": \"/bin/mcptrail\",\r\n      \"args\": [\"--label=a\", \"--\", \"x\"]\r\n    }\r\n  }\r\n}\r\n",
		},
		{
			name: "toml without a final newline",
			src:  "[mcp_servers.a]\ncommand = \"x\"",
			want: "[mcp_servers.a]\ncommand = \"/bin/mcptrail\"\nargs = [\"--label=a\", \"--\", \"x\"]",
			f:    TOML,
		},
		{
			name: "toml dotted keys, CRLF",
			src:  "mcp_servers.a.command = 'x' # here\r\nmodel = \"m\"\r\n",
			want: "mcp_servers.a.command = \"/bin/mcptrail\" # here\r\nmcp_servers.a.args = [\"--label=a\", \"--\", 'x']\r\nmodel = \"m\"\r\n",
			f:    TOML,
		},
		{
			name: "toml multi-line args",
			src:  "[mcp_servers.\"a.b\"]\nargs = [\n  \"-y\",\n]\ncommand = \"npx\"\n",
			want: "[mcp_servers.\"a.b\"]\nargs = [\n  \"--label\", \"a.b\", \"--\", \"npx\", \"-y\",\n]\ncommand = \"/bin/mcptrail\"\n",
			f:    TOML,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			opts.Mcptrail = "/bin/mcptrail"
			got, _, err := Wrap([]byte(tc.src), Layout{Format: tc.f}, nil, &opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("wrap (-want +got):\n%s", diff)
			}
			back, _, err := Unwrap(got, Layout{Format: tc.f}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.src, string(back)); diff != "" {
				t.Errorf("unwrap (-src +got):\n%s", diff)
			}
		})
	}
}

// TestChanges checks what wrap and unwrap report per server, and that
// names pick servers.
func TestChanges(t *testing.T) {
	t.Parallel()
	src := []byte(`{"mcpServers": {
		"s": {"command": "x"},
		"r": {"type": "http", "url": "https://h/mcp"},
		"w": {"command": "/usr/bin/mcptrail", "args": ["--", "x"]},
		"n": {"command": 3},
		"e": {"env": {}}
	}}`)
	out, changes, err := Wrap(src, Layout{Format: JSON}, nil, &Options{Mcptrail: "/bin/mcptrail"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Name: "s", Action: Wrapped},
		{Name: "r", Action: Remote, URL: "https://h/mcp", URLKey: "url", Type: "http"},
		{Name: "w", Action: AlreadyWrapped},
		{Name: "n", Action: Skipped, Why: "its command is not a string"},
		{Name: "e", Action: Skipped, Why: "it has no command and no url"},
	}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Errorf("wrap changes (-want +got):\n%s", diff)
	}
	_, changes, err = Unwrap(out, Layout{Format: JSON}, []string{"s", "w", "r"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = []Change{
		{Name: "s", Action: Unwrapped},
		{Name: "r", Action: NotWrapped, Type: "http"},
		{Name: "w", Action: Skipped, Why: "it runs through mcptrail, but not as wrap writes it"},
	}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Errorf("unwrap changes (-want +got):\n%s", diff)
	}
	if _, _, err := Wrap(src, Layout{Format: JSON}, nil, &Options{}); !errors.Is(err, ErrNoMcptrail) {
		t.Errorf("wrap without a command: %v, want ErrNoMcptrail", err)
	}
	if _, _, err := Wrap([]byte(`{"mcpServers": {`), Layout{Format: JSON}, nil, &Options{Mcptrail: "/bin/mcptrail"}); !errors.Is(err, ErrSyntax) {
		t.Errorf("wrap of a broken file: %v, want ErrSyntax", err)
	}
}

// TestUnwrapEditedArgs: when the user changed args wrap added, unwrap
// leaves the entry alone rather than guess.
func TestUnwrapEditedArgs(t *testing.T) {
	t.Parallel()
	src := []byte(`{"mcpServers":{"a":{"command":"/bin/mcptrail","args":["--label=a","--","x","--extra"]}}}`)
	out, changes, err := Unwrap(src, Layout{Format: JSON}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(src) || len(changes) != 1 || changes[0].Action != Skipped {
		t.Errorf("unwrap = %s, %+v; want the file unchanged and the entry skipped", out, changes)
	}
}

func TestLocations(t *testing.T) {
	t.Parallel()
	env := func(goos string, vars map[string]string) *Env {
		return &Env{GOOS: goos, Home: "/h", Dir: "/p", Getenv: func(k string) string { return vars[k] }}
	}
	for _, tc := range []struct {
		env    *Env
		client string
		want   []string
	}{
		{env("darwin", nil), "claude-desktop", []string{"/h/Library/Application Support/Claude/claude_desktop_config.json"}},
		{env("windows", map[string]string{"APPDATA": "/h/AppData/Roaming"}), "claude-desktop", []string{"/h/AppData/Roaming/Claude/claude_desktop_config.json"}},
		{env("linux", nil), "claude-desktop", []string{"/h/.config/Claude/claude_desktop_config.json"}},
		{env("linux", map[string]string{"XDG_CONFIG_HOME": "/x"}), "vscode", []string{
			"/x/Code/User/mcp.json", "/x/Code/User/settings.json mcp.servers",
			"/p/.vscode/mcp.json", "/p/.vscode/settings.json mcp.servers"}},
		{env("darwin", nil), "cursor", []string{"/h/.cursor/mcp.json", "/p/.cursor/mcp.json"}},
		{env("linux", nil), "claude-code", []string{"/h/.claude.json", "/h/.claude.json projects./p.mcpServers", "/p/.mcp.json"}},
		{env("windows", nil), "claude-code", []string{"/h/.claude.json", "/h/.claude.json projects./p.mcpServers", "/p/.mcp.json"}},
		{env("linux", nil), "windsurf", []string{"/h/.codeium/windsurf/mcp_config.json"}},
		{env("linux", nil), "gemini", []string{"/h/.gemini/settings.json", "/p/.gemini/settings.json"}},
		{env("linux", map[string]string{"CODEX_HOME": "/c"}), "codex", []string{"/c/config.toml", "/p/.codex/config.toml"}},
		{&Env{GOOS: "linux", Home: "/h", Dir: "/h"}, "gemini", []string{"/h/.gemini/settings.json"}},
		{&Env{GOOS: "windows", Home: "/h", Dir: `C:\src\app`}, "claude-code", []string{
			"/h/.claude.json", `/h/.claude.json projects.C:\src\app.mcpServers`,
			"/h/.claude.json projects.C:/src/app.mcpServers", filepath.ToSlash(filepath.Join(`C:\src\app`, ".mcp.json"))}},
	} {
		if diff := cmp.Diff(tc.want, where(Locations(tc.env, tc.client))); diff != "" {
			t.Errorf("%s on %s (-want +got):\n%s", tc.client, tc.env.GOOS, diff)
		}
	}
	if n := len(Locations(env("linux", nil), "")); n != 15 {
		t.Errorf("all clients: %d locations, want 15", n)
	}
}

// where writes each location as its path and, when not the default, the
// path of members to its servers.
func where(locs []Location) []string {
	var out []string
	for _, l := range locs {
		s := filepath.ToSlash(l.Path)
		if l.Servers != nil {
			s += " " + strings.Join(l.Servers, ".")
		}
		out = append(out, s)
	}
	return out
}

// TestStoreClaude: on Windows, Claude Desktop from the Microsoft Store
// reads its configuration from its package's LocalCache, found whatever
// the package's publisher suffix.
func TestStoreClaude(t *testing.T) {
	t.Parallel()
	local := t.TempDir()
	msix := filepath.Join(local, "Packages", "Claude_pzs8sxrjxfjjc", "LocalCache", "Roaming", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(msix), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(msix, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"LOCALAPPDATA": local, "APPDATA": "/h/AppData/Roaming"}
	env := &Env{GOOS: "windows", Home: "/h", Dir: "/p", Getenv: func(k string) string { return vars[k] }, Glob: filepath.Glob}
	want := []string{filepath.ToSlash(msix), "/h/AppData/Roaming/Claude/claude_desktop_config.json"}
	if diff := cmp.Diff(want, where(Locations(env, "claude-desktop"))); diff != "" {
		t.Errorf("windows (-want +got):\n%s", diff)
	}
	env.GOOS = "darwin"
	if got := where(Locations(env, "claude-desktop")); len(got) != 1 {
		t.Errorf("darwin: %q, want only Application Support's", got)
	}
}

// TestBackupReplace: the backup is private and never overwritten; Replace
// keeps the mode and writes through a symbolic link.
func TestBackupReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 23, 59, 58, 0, time.UTC)
	b1, err := Backup(path, []byte("old"), now)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := Backup(path, []byte("older"), now)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(b1) != "mcp.json.mcptrail-backup-20261130T235958Z" || filepath.Base(b2) != "mcp.json.mcptrail-backup-20261130T235958Z-2" {
		t.Errorf("backups %s, %s", b1, b2)
	}
	if data, err := os.ReadFile(b1); err != nil || string(data) != "old" {
		t.Errorf("backup holds %q (%v), want the old content", data, err)
	}
	if fi, err := os.Stat(b1); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("backup mode %v (%v), want 0600", fi.Mode(), err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(path, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	f, err := Read(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("new!"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Replace([]byte("stale"), now); !errors.Is(err, ErrChanged) {
		t.Errorf("Replace over content it did not read: %v, want ErrChanged", err)
	}
	if f, err = Read(link); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Replace([]byte("new"), now); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link (%v)", err)
	}
	fi, err := os.Stat(path)
	if data, rerr := os.ReadFile(path); err != nil || rerr != nil || string(data) != "new" || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640) {
		t.Errorf("target holds %q, mode %v; want new, 0640", data, fi.Mode())
	}
}
