package capture

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
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
			if got := DeriveLabel(argv); got != tc.want {
				t.Errorf("DeriveLabel(%q) = %q, want %q", argv, got, tc.want)
			}
		})
	}
}

// TestDeriveLabelFiles: a node entry point named index or main is named
// after the package of the nearest package.json, else the directory above
// dist, build, lib or out; other scripts and launchers are as DeriveLabel
// names them, and no file is read without readFile.
func TestDeriveLabelFiles(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"srv/weather/package.json":    {Data: []byte(`{"name": "@acme/weather-mcp", "version": "1.0.0"}`)},
		"srv/weather/dist/index.js":   {},
		"srv/plain/dist/index.js":     {},
		"srv/broken/package.json":     {Data: []byte(`{"name": `)},
		"srv/broken/build/index.js":   {},
		"package.json":                {Data: []byte(`{"name": "root-pkg"}`)},
		"srv/mono/packages/x/main.js": {},
	}
	read := func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) }
	tests := []struct {
		cmd  string
		read func(string) ([]byte, error)
		want string
	}{
		{"node srv/weather/dist/index.js", read, "weather-mcp"},
		{"node srv/weather/dist/index.js", nil, "weather"},
		{"node srv/plain/dist/index.js", nil, "plain"},
		{"node /opt/tools/plain/build/main.js", nil, "plain"},
		{"node srv/broken/build/index.js", read, "broken"},
		{"node srv/mono/packages/x/main.js", read, "root-pkg"},
		{"node build/index.js", read, "root-pkg"},
		{"node build/index.js", nil, "index"},
		{"node srv/weather/dist/server.js", read, "server"},
		{"npx -y @scope/server-foo", read, "server-foo"},
		{`node C:\mcp\calendar\dist\index.js`, nil, "calendar"},
	}
	for _, tc := range tests {
		if got := DeriveLabelFiles(strings.Fields(tc.cmd), tc.read); got != tc.want {
			t.Errorf("DeriveLabelFiles(%q, read=%v) = %q, want %q", tc.cmd, tc.read != nil, got, tc.want)
		}
	}
}
