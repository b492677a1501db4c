package clientconfig

import (
	"path/filepath"
	"slices"
	"strings"
)

// Env is what the configuration paths depend on.
type Env struct {
	// GOOS is the operating system ("darwin", "linux", "windows", ...).
	GOOS string
	// Home is the user's home directory.
	Home string
	// Dir is the working directory, where project configurations are.
	Dir string
	// Getenv reads the environment (APPDATA, LOCALAPPDATA,
	// XDG_CONFIG_HOME, CODEX_HOME); nil reads nothing.
	Getenv func(string) string
	// Glob lists the files matching a pattern (filepath.Glob); nil finds
	// none. It finds the Claude Desktop package of the Microsoft Store.
	Glob func(pattern string) ([]string, error)
}

func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// appData is the directory of per-user application settings: Application
// Support on macOS, %APPDATA% on Windows, $XDG_CONFIG_HOME (~/.config)
// elsewhere.
func (e *Env) appData() string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	case "windows":
		if d := e.getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(e.Home, "AppData", "Roaming")
	}
	if d := e.getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	return filepath.Join(e.Home, ".config")
}

// Location is one list of servers a client reads, in a file.
type Location struct {
	// Client is the client's id (Clients).
	Client string
	// Scope is "user" (the user's own file), "project" (in Env.Dir) or
	// "local" (the user's own file, for the project in Env.Dir).
	Scope string
	Path  string
	Layout
}

// Layout says how a file keeps its servers.
type Layout struct {
	Format Format
	// Servers is the path of members to the object of servers in a JSON
	// file (["projects", "/src/app", "mcpServers"]); nil is the top-level
	// "mcpServers", else "servers". TOML files keep them in mcp_servers.
	Servers []string
}

// Clients lists the ids of the clients whose configurations this package
// knows, in the order they are searched.
func Clients() []string {
	return []string{"claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "gemini", "codex"}
}

// Locations lists the configuration files of client (every client's when
// client is ""), whether they exist or not. The paths are those the
// clients document:
//
//	claude-desktop  <appData>/Claude/claude_desktop_config.json, and on
//	                Windows the Microsoft Store package's copy,
//	                %LOCALAPPDATA%/Packages/Claude_*/LocalCache/Roaming/Claude/…
//	claude-code     ~/.claude.json (user, and local: its
//	                projects[<dir>].mcpServers), .mcp.json (project)
//	cursor          ~/.cursor/mcp.json, .cursor/mcp.json
//	vscode          <appData>/Code/User/mcp.json, .vscode/mcp.json ("servers"),
//	                and the older "mcp": {"servers"} of settings.json in both
//	windsurf        ~/.codeium/windsurf/mcp_config.json
//	gemini          ~/.gemini/settings.json, .gemini/settings.json
//	codex           $CODEX_HOME (~/.codex)/config.toml, .codex/config.toml
//
// where <appData> is ~/Library/Application Support on macOS, %APPDATA%
// on Windows and $XDG_CONFIG_HOME (~/.config) on Linux.
func Locations(env *Env, client string) []Location {
	codexHome := env.getenv("CODEX_HOME")
	if codexHome == "" {
		codexHome = filepath.Join(env.Home, ".codex")
	}
	json, toml := Layout{Format: JSON}, Layout{Format: TOML}
	vsSettings := Layout{Format: JSON, Servers: []string{"mcp", "servers"}}
	claudeJSON := filepath.Join(env.Home, ".claude.json")
	all := env.storeClaude()
	all = append(all, []Location{
		{"claude-desktop", "user", filepath.Join(env.appData(), "Claude", "claude_desktop_config.json"), json},
		{"claude-code", "user", claudeJSON, json},
		{"claude-code", "local", claudeJSON, Layout{Format: JSON, Servers: []string{"projects", env.Dir, "mcpServers"}}},
		// Claude Code on Windows may key a project by its path with slashes.
		{"claude-code", "local", claudeJSON, Layout{Format: JSON, Servers: []string{"projects", strings.ReplaceAll(env.Dir, `\`, "/"), "mcpServers"}}},
		{"claude-code", "project", filepath.Join(env.Dir, ".mcp.json"), json},
		{"cursor", "user", filepath.Join(env.Home, ".cursor", "mcp.json"), json},
		{"cursor", "project", filepath.Join(env.Dir, ".cursor", "mcp.json"), json},
		{"vscode", "user", filepath.Join(env.appData(), "Code", "User", "mcp.json"), json},
		{"vscode", "user", filepath.Join(env.appData(), "Code", "User", "settings.json"), vsSettings},
		{"vscode", "project", filepath.Join(env.Dir, ".vscode", "mcp.json"), json},
		{"vscode", "project", filepath.Join(env.Dir, ".vscode", "settings.json"), vsSettings},
		{"windsurf", "user", filepath.Join(env.Home, ".codeium", "windsurf", "mcp_config.json"), json},
		{"gemini", "user", filepath.Join(env.Home, ".gemini", "settings.json"), json},
		{"gemini", "project", filepath.Join(env.Dir, ".gemini", "settings.json"), json},
		{"codex", "user", filepath.Join(codexHome, "config.toml"), toml},
		{"codex", "project", filepath.Join(env.Dir, ".codex", "config.toml"), toml},
	}...)
	var out []Location
	for _, l := range all {
		// In the home directory a project file is the user's file.
		dup := slices.ContainsFunc(out, func(o Location) bool {
			return o.Path == l.Path && slices.Equal(o.Servers, l.Servers)
		})
		if (client == "" || l.Client == client) && !dup {
			out = append(out, l)
		}
	}
	return out
}

// storeClaude lists the configuration of Claude Desktop installed from
// the Microsoft Store or as an MSIX package: the app reads it from its
// package's LocalCache, not from %APPDATA%.
// The package folder's suffix is the publisher's hash, so it is matched,
// not named.
func (e *Env) storeClaude() []Location {
	if e.GOOS != "windows" || e.Glob == nil {
		return nil
	}
	local := e.getenv("LOCALAPPDATA")
	if local == "" {
		local = filepath.Join(e.Home, "AppData", "Local")
	}
	paths, _ := e.Glob(filepath.Join(local, "Packages", "Claude_*", "LocalCache", "Roaming", "Claude", "claude_desktop_config.json"))
	out := make([]Location, 0, len(paths))
	for _, p := range paths {
		out = append(out, Location{"claude-desktop", "user", p, Layout{Format: JSON}})
	}
	return out
}
