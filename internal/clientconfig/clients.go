package clientconfig

import (
	"path/filepath"
	"slices"
)

// Env is what the configuration paths depend on.
type Env struct {
	// GOOS is the operating system ("darwin", "linux", "windows", ...).
	GOOS string
	// Home is the user's home directory.
	Home string
	// Dir is the working directory, where project configurations are.
	Dir string
	// Getenv reads the environment (APPDATA, XDG_CONFIG_HOME,
	// CODEX_HOME); nil reads nothing.
	Getenv func(string) string
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

// Location is one configuration file a client reads.
type Location struct {
	// Client is the client's id (Clients).
	Client string
	// Scope is "user" (the user's own file) or "project" (in Env.Dir).
	Scope  string
	Path   string
	Format Format
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
//	claude-desktop  <appData>/Claude/claude_desktop_config.json
//	claude-code     ~/.claude.json (user), .mcp.json (project)
//	cursor          ~/.cursor/mcp.json, .cursor/mcp.json
//	vscode          <appData>/Code/User/mcp.json, .vscode/mcp.json ("servers")
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
	all := []Location{
		{"claude-desktop", "user", filepath.Join(env.appData(), "Claude", "claude_desktop_config.json"), JSON},
		{"claude-code", "user", filepath.Join(env.Home, ".claude.json"), JSON},
		{"claude-code", "project", filepath.Join(env.Dir, ".mcp.json"), JSON},
		{"cursor", "user", filepath.Join(env.Home, ".cursor", "mcp.json"), JSON},
		{"cursor", "project", filepath.Join(env.Dir, ".cursor", "mcp.json"), JSON},
		{"vscode", "user", filepath.Join(env.appData(), "Code", "User", "mcp.json"), JSON},
		{"vscode", "project", filepath.Join(env.Dir, ".vscode", "mcp.json"), JSON},
		{"windsurf", "user", filepath.Join(env.Home, ".codeium", "windsurf", "mcp_config.json"), JSON},
		{"gemini", "user", filepath.Join(env.Home, ".gemini", "settings.json"), JSON},
		{"gemini", "project", filepath.Join(env.Dir, ".gemini", "settings.json"), JSON},
		{"codex", "user", filepath.Join(codexHome, "config.toml"), TOML},
		{"codex", "project", filepath.Join(env.Dir, ".codex", "config.toml"), TOML},
	}
	var out []Location
	for _, l := range all {
		// In the home directory a project file is the user's file.
		dup := slices.ContainsFunc(out, func(o Location) bool { return o.Path == l.Path })
		if (client == "" || l.Client == client) && !dup {
			out = append(out, l)
		}
	}
	return out
}
