package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestReplayIgnoreConfig: the [replay] ignore lists of the user's file and
// of the working directory's .mcptrail.toml add up (the working
// directory's cannot take one of the user's away), then --ignore's; a
// value that is not a JSON Pointer is a usage error naming its file. It
// changes the working directory, so it does not run in parallel.
func TestReplayIgnoreConfig(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the user's file is under APPDATA on Windows")
	}
	xdg, work := t.TempDir(), t.TempDir()
	t.Chdir(work)
	getenv := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(xdg, "mcptrail", "config.toml"), "[replay]\nignore = [\"/structuredContent/createdAt\"]\n")
	write(configFile, "[replay]\nignore = [\"/structuredContent/order\"]\n")
	cfg, err := loadConfig(getenv)
	if err != nil {
		t.Fatal(err)
	}
	got, err := replayIgnore(cfg, []string{"/content/0/text"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/structuredContent/createdAt", "/structuredContent/order", "/content/0/text"}
	if !slices.Equal(got, want) {
		t.Errorf("ignore = %q, want %q", got, want)
	}
	if _, err := replayIgnore(cfg, []string{"content"}); err == nil || !strings.Contains(err.Error(), `--ignore "content": want a JSON Pointer`) {
		t.Errorf("--ignore content: err = %v, want a usage error", err)
	}
	write(configFile, "[replay]\nignore = [\"order\"]\n")
	if _, err := loadConfig(getenv); err == nil || !strings.Contains(err.Error(), `.mcptrail.toml: [replay] ignore "order": want a JSON Pointer`) {
		t.Errorf("a bad [replay] ignore: err = %v, want a usage error naming .mcptrail.toml", err)
	}
	write(configFile, "[replay]\nnoise = true\n")
	if _, err := loadConfig(getenv); err == nil || !strings.Contains(err.Error(), `unknown key "replay.noise"`) {
		t.Errorf("an unknown [replay] key: err = %v, want it named", err)
	}
}
