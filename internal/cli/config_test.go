package cli

import (
	"path/filepath"
	"testing"
)

// TestUserConfigPath: the user's own file follows XDG_CONFIG_HOME, then
// APPDATA on Windows or HOME elsewhere; a relative variable is ignored.
func TestUserConfigPath(t *testing.T) {
	t.Parallel()
	abs := func(p string) string { return filepath.Join(string(filepath.Separator), p) }
	tests := []struct {
		name, goos string
		env        map[string]string
		want       string
	}{
		{"xdg", "linux", map[string]string{"XDG_CONFIG_HOME": abs("x"), "HOME": abs("h")}, filepath.Join(abs("x"), "mcptrail", "config.toml")},
		{"home", "darwin", map[string]string{"HOME": abs("h")}, filepath.Join(abs("h"), ".config", "mcptrail", "config.toml")},
		{"relative xdg ignored", "linux", map[string]string{"XDG_CONFIG_HOME": "repo", "HOME": abs("h")}, filepath.Join(abs("h"), ".config", "mcptrail", "config.toml")},
		{"appdata", "windows", map[string]string{"APPDATA": abs("a"), "HOME": abs("h")}, filepath.Join(abs("a"), "mcptrail", "config.toml")},
		{"relative home", "linux", map[string]string{"HOME": "h"}, ""},
		{"nothing", "linux", nil, ""},
	}
	for _, tt := range tests {
		if got := userConfigPath(func(k string) string { return tt.env[k] }, tt.goos); got != tt.want {
			t.Errorf("%s: userConfigPath = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestUserCapture: the user's capture is absolute or under ~; a relative
// one, or ~ without a home, is a usage error.
func TestUserCapture(t *testing.T) {
	t.Parallel()
	home := filepath.Join(string(filepath.Separator), "h")
	env := func(k string) string { return map[string]string{"HOME": home}[k] }
	for in, want := range map[string]string{
		"":                  "",
		home + "/c.jsonl":   filepath.Join(home, "c.jsonl"),
		"~/caps/{id}.jsonl": filepath.Join(home, "caps", "{id}.jsonl"),
	} {
		if got, err := userCapture("u.toml", in, env); err != nil || filepath.Clean(got) != filepath.Clean(want) {
			t.Errorf("userCapture(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"caps/x.jsonl", "../x", "~user/x"} {
		if got, err := userCapture("u.toml", in, env); err == nil {
			t.Errorf("userCapture(%q) = %q, want an error", in, got)
		}
	}
	if got, err := userCapture("u.toml", "~/x", func(string) string { return "" }); err == nil {
		t.Errorf("userCapture(~/x) without a home = %q, want an error", got)
	}
}
