package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSelfPath: wrap writes the link on PATH that started mcptrail, not
// the file it leads to, unless that name is another file.
func TestSelfPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "Cellar", "mcptrail", "1.0", "bin", "mcptrail")
	bin, other := filepath.Join(dir, "bin"), filepath.Join(dir, "other")
	for _, d := range []string{filepath.Dir(exe), bin, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{exe, filepath.Join(other, "mcptrail")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(bin, "mcptrail")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, arg0, want string
	}{
		{"bare name, a link on PATH", bin, "mcptrail", link},
		{"the link's path", "", link, link},
		{"bare name, another file on PATH", other, "mcptrail", exe},
		{"bare name, not on PATH", filepath.Join(dir, "none"), "mcptrail", exe},
		{"another file's path", "", filepath.Join(other, "mcptrail"), exe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			if got := selfPath(tc.arg0, exe); got != tc.want {
				t.Errorf("selfPath(%q) = %q, want %q", tc.arg0, got, tc.want)
			}
		})
	}
}
