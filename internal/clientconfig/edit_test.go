package clientconfig

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/mcptrail/mcptrail/internal/golden"
)

// testOpts is what the wrap goldens are written with.
const testMcptrail = "/usr/local/bin/mcptrail"

func formatOf(path string) Format {
	if strings.HasSuffix(path, ".toml") {
		return TOML
	}
	return JSON
}

// layoutOf is where a testdata file keeps its servers: a Claude Code
// project's local servers in ~/.claude.json, the "mcp" setting of VS
// Code's settings.json, else the default.
func layoutOf(path string) Layout {
	switch base := filepath.Base(path); {
	case strings.HasPrefix(base, "claude-code-local."):
		return Layout{Format: JSON, Servers: []string{"projects", "/home/alex/src/app", "mcpServers"}}
	case strings.HasPrefix(base, "vscode-settings."):
		return Layout{Format: JSON, Servers: []string{"mcp", "servers"}}
	}
	return Layout{Format: formatOf(path)}
}

// TestWrapRoundTrip wraps each real-world-shaped configuration in
// testdata/wrap (golden: NAME.wrapped), and checks that wrapping again
// changes nothing, that unwrapping gives back the original bytes, and
// that unwrapping the original changes nothing.
func TestWrapRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/wrap/*.*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, ".wrapped") {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			l := layoutOf(path)
			wrapped, changes, err := Wrap(orig, l, nil, &Options{Mcptrail: testMcptrail})
			if err != nil {
				t.Fatal(err)
			}
			if len(changes) == 0 {
				t.Fatal("no servers found")
			}
			golden.Check(t, path+".wrapped", string(wrapped))
			again, _, err := Wrap(wrapped, l, nil, &Options{Mcptrail: testMcptrail})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(wrapped), string(again)); diff != "" {
				t.Errorf("wrapping twice changed the file (-once +twice):\n%s", diff)
			}
			back, _, err := Unwrap(wrapped, l, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(orig), string(back)); diff != "" {
				t.Errorf("unwrap did not restore the original (-orig +unwrapped):\n%s", diff)
			}
			same, _, err := Unwrap(orig, l, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(same, orig) {
				t.Error("unwrapping an unwrapped file changed it")
			}
		})
	}
}

// TestWrappedReadsBack reads the wrapped goldens with real JSON and TOML
// decoders (not this package's scanners): every stdio server now runs
// mcptrail with its label, "--" and its original command line.
func TestWrappedReadsBack(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string][]string // server → args after wrap
	}{
		{"claude-desktop.json", map[string][]string{
			"filesystem": {"--label", "filesystem", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/Users/alex/Desktop", "/Users/alex/Downloads"},
			"github":     {"--label", "github", "--", "docker", "run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"},
			"sqlite":     {"--label", "sqlite", "--", `C:\Program Files\uv\uvx.exe`, "mcp-server-sqlite", "--db-path", `C:\Users\alex\test.db`},
			"weather":    {"--label=weather", "--", "/Users/alex/.local/bin/weather-mcp"},
		}},
		{"claude-code-project.mcp.json", map[string][]string{
			"playwright": {"--label", "playwright", "--", "npx", "@playwright/mcp@latest"},
			"db":         {"--label", "db", "--", "${HOME}/bin/db-mcp"},
		}},
		{"codex.toml", map[string][]string{
			"context7":        {"--label", "context7", "--", "npx", "-y", "@upstash/context7-mcp"},
			"chrome-devtools": {"--label", "chrome-devtools", "--", "npx", "chrome-devtools-mcp@latest", "--isolated"},
			"local":           {"--label=local", "--", "/opt/tools/local-mcp"},
			"inline":          {"--label", "inline", "--", "uvx", "mcp-server-time"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata/wrap", tc.file+".wrapped"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				MCPServers map[string]struct {
					Command string   `json:"command" toml:"command"`
					Args    []string `json:"args" toml:"args"`
				} `json:"mcpServers" toml:"mcp_servers"`
			}
			if formatOf(tc.file) == TOML {
				err = toml.Unmarshal(data, &doc)
			} else {
				err = json.Unmarshal(data, &doc)
			}
			if err != nil {
				t.Fatalf("the wrapped file does not read back: %v", err)
			}
			for name, args := range tc.want {
				got := doc.MCPServers[name]
				if got.Command != testMcptrail {
					t.Errorf("%s: command %q, want %q", name, got.Command, testMcptrail)
				}
				if diff := cmp.Diff(args, got.Args); diff != "" {
					t.Errorf("%s: args (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}
