package clientconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bigClaudeJSON builds a ~/.claude.json of about size bytes shaped like
// Claude Code's own: many projects, each with a prompt history, and
// servers stdio servers at the top level.
func bigClaudeJSON(size, servers int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"numStartups\": 812,\n  \"mcpServers\": {\n")
	for i := range servers {
		sep := ","
		if i == servers-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    \"server-%d\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@example/server-%d\"],\n      \"env\": {\"TOKEN\": \"t-%d\"}\n    }%s\n", i, i, i, sep)
	}
	b.WriteString("  },\n  \"projects\": {\n")
	for p := 0; b.Len() < size; p++ {
		if p > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    \"/home/alex/src/project-%d\": {\n      \"allowedTools\": [],\n      \"history\": [\n", p)
		for h := range 100 {
			if h > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "        {\"display\": \"fix the failing test in pkg/%d\\nthen run \\\"go test ./...\\\" again\", \"pastedContents\": {}}", h)
		}
		b.WriteString("\n      ],\n      \"mcpServers\": {}\n    }")
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

// bigCodexTOML builds a Codex config.toml with servers stdio servers.
func bigCodexTOML(servers int) []byte {
	var b strings.Builder
	b.WriteString("model = \"gpt-5.1-codex\"\n")
	for i := range servers {
		fmt.Fprintf(&b, "\n# server %d\n[mcp_servers.server-%d]\ncommand = \"npx\"\nargs = [\"-y\", \"@example/server-%d\"]\nenv = { TOKEN = \"t-%d\" }\n", i, i, i, i)
	}
	return []byte(b.String())
}

// BenchmarkWrap wraps every server of a large ~/.claude.json: what the
// user waits for in `mcptrail wrap --all` besides the file I/O.
func BenchmarkWrap(b *testing.B) {
	for _, bc := range []struct {
		name          string
		size, servers int
		format        Format
	}{
		{"26MB-10-servers", 26 << 20, 10, JSON},
		{"26MB-600-servers", 26 << 20, 600, JSON},
		{"1MB-600-servers", 1 << 20, 600, JSON},
		{"toml-6000-servers", 0, 6000, TOML},
	} {
		b.Run(bc.name, func(b *testing.B) {
			src := bigClaudeJSON(bc.size, bc.servers)
			if bc.format == TOML {
				src = bigCodexTOML(bc.servers)
			}
			opts := &Options{Mcptrail: testMcptrail}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				out, changes, err := Wrap(src, Layout{Format: bc.format}, nil, opts)
				if err != nil || len(changes) != bc.servers || len(out) <= len(src) {
					b.Fatalf("wrap: %d changes, %v", len(changes), err)
				}
			}
		})
	}
}

// BenchmarkWrapFile is `mcptrail wrap --all` on a 26 MB ~/.claude.json
// with 600 servers, file I/O included: reading it, wrapping, the backup,
// the checks and the swap.
func BenchmarkWrapFile(b *testing.B) {
	src := bigClaudeJSON(26<<20, 600)
	dir := b.TempDir()
	path := filepath.Join(dir, "claude.json")
	opts := &Options{Mcptrail: testMcptrail}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(path, src, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		f, err := Read(path)
		if err != nil {
			b.Fatal(err)
		}
		out, _, err := Wrap(f.Data, Layout{Format: JSON}, nil, opts)
		if err != nil {
			b.Fatal(err)
		}
		backup, err := f.Replace(out, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.Remove(backup); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
