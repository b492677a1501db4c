package cli

import (
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/redact"
)

func TestDeriveLabel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd  string
		want string
	}{
		{"npx -y @scope/server-foo", "server-foo"},
		{"npx -y @modelcontextprotocol/server-everything@2025.1.1 stdio", "server-everything"},
		{"npx mcp-remote https://example.com/mcp", "mcp-remote"},
		{"npx -p @scope/pkg bin-name", "bin-name"},
		{"python -m pkg.mod", "pkg.mod"},
		{"python3.12 -u server.py --port 1", "server"},
		{"python -mpkg", "pkg"},
		{"node build/index.js", "index"},
		{"node --require ts-node/register src/main.ts", "main"},
		{"uvx mcp-server-git", "mcp-server-git"},
		{"uvx --from mcp-server-git==0.6.2 mcp-server-git --repository .", "mcp-server-git"},
		{"uv run --with httpx server.py", "server"},
		{"uv run python -m weather", "weather"},
		{"uv tool run mcp-server-fetch", "mcp-server-fetch"},
		{"/usr/bin/my-srv --x", "my-srv"},
		{"bun run src/server.ts", "server"},
		{"deno run -A --allow-net=x jsr:@std/mcp-server", "mcp-server"},
		{"go run ./cmd/foo", "foo"},
		{"go run github.com/acme/mcp/cmd/bar@latest", "bar"},
		{"go run main.go", "main"},
		{"docker run -i --rm -e TOKEN ghcr.io/github/github-mcp-server:v1", "github-mcp-server"},
		{"docker run -i --rm mcp/fetch", "fetch"},
		{"env FOO=1 node dist/cli.js", "cli"},
		{"sh -c 'exec node server.mjs'", "server"},
		{"pipx run mcp-server-time", "mcp-server-time"},
		{"npm exec -y @acme/tools", "tools"},
		{"node", "node"},
		{"npx", "npx"},
		{`C:\tools\server.exe`, "server"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			argv := strings.Fields(strings.ReplaceAll(tc.cmd, "'exec node server.mjs'", "EXEC"))
			for i, a := range argv {
				if a == "EXEC" {
					argv[i] = "exec node server.mjs"
				}
			}
			if got := deriveLabel(argv); got != tc.want {
				t.Errorf("deriveLabel(%q) = %q, want %q", argv, got, tc.want)
			}
		})
	}
}

// TestSessionLabel: under redaction, the label comes only from the
// scrubbed command (else the program's name), so no secret names a
// session or its file.
func TestSessionLabel(t *testing.T) {
	t.Parallel()
	red, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		label string
		argv  []string
		red   redact.Redactor
		want  string
	}{
		{"", []string{"sh", "-c", "node --token CANARY x.js"}, red, "x"},
		{"", []string{"sh", "-c", "API_KEY=CANARY node server.mjs"}, red, "server"},
		{"", []string{"node", "--token", "CANARY"}, red, "node"},
		{"", []string{"node", "--token=CANARY"}, red, "node"},
		{"", []string{"CANARY_TOKEN=CANARY"}, red, "session"},
		{"", []string{"npx", "mcp-remote", "https://u:CANARY@h/mcp?token=CANARY"}, red, "mcp-remote"},
		{"CANARY", []string{"node", "--token", "CANARY", "x.js"}, red, "[REDACTED]"},
		{"team", []string{"node", "--token", "CANARY", "x.js"}, red, "team"},
		{"", []string{"node", "--token", "CANARY"}, nil, "CANARY"},
	}
	for _, tc := range tests {
		if got := sessionLabel(tc.label, tc.argv, tc.red); got != tc.want {
			t.Errorf("sessionLabel(%q, %q) = %q, want %q", tc.label, tc.argv, got, tc.want)
		}
	}
}
