package capture

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStateDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"mcptrail home wins", map[string]string{"MCPTRAIL_HOME": "/m", "XDG_STATE_HOME": "/x", "HOME": "/h"}, "/m"},
		{"xdg state home", map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, filepath.Join("/x", "mcptrail")},
	}
	if runtime.GOOS != "windows" { // Windows falls back to LOCALAPPDATA: TestDefaultStateDirWindows
		tests = append(tests, struct {
			name string
			env  map[string]string
			want string
		}{"home", map[string]string{"HOME": "/h"}, "/h/.local/state/mcptrail"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := StateDir(func(k string) string { return tt.env[k] })
			if err != nil || got != tt.want {
				t.Errorf("StateDir = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := StateDir(func(string) string { return "" }); err == nil {
		t.Error("StateDir with no environment: no error")
	}
}

func TestCreateSessionFile(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	dir := SessionsDir(state)
	start := time.Date(2026, 7, 28, 9, 30, 0, 0, time.FixedZone("CEST", 2*3600))
	f, err := CreateSessionFile(dir, start, "my server/v2 ✓", "abc123")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if want := filepath.Join(state, "sessions", "20260728T073000.000000Z-my_server_v2__-abc123.jsonl"); f.Name() != want {
		t.Errorf("session file %s, want %s", f.Name(), want)
	}
	for path, mode := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, state: 0o700 | os.ModeDir, f.Name(): 0o600} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// Windows has no permission bits (Go reports 0666 and 0777): there the
		// profile directory's ACL keeps the state private.
		if runtime.GOOS != "windows" && st.Mode() != mode {
			t.Errorf("%s: mode %v, want %v", path, st.Mode(), mode)
		}
	}
	g, err := CreateSessionFile(dir, start.Add(time.Hour), "", "def456")
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	files, err := SessionFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{g.Name(), f.Name()}, files); diff != "" {
		t.Errorf("SessionFiles, newest first (-want +got):\n%s", diff)
	}
	if files, err := SessionFiles(filepath.Join(state, "missing")); err != nil || files != nil {
		t.Errorf("SessionFiles of a missing dir = %v, %v; want none", files, err)
	}
}

// TestFileSafe: whatever a label holds, FileSafe makes one harmless file
// name component of it: no separator, never ".", ".." or a hidden name.
func TestFileSafe(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"server-foo_1.2", "server-foo_1.2"},
		{"", "session"},
		{".", "_"},
		{"..", "_."},
		{"...", "_.."},
		{".bash_profile", "_bash_profile"},
		{"../../.zshenv", "_._.._.zshenv"},
		{`..\..\x`, "_._.._x"},
		{"C:x", "C_x"},
		{"a/b", "a_b"},
		{"\x00..", "_.."},
		{strings.Repeat("a", 50), strings.Repeat("a", 40)},
	}
	for _, tt := range tests {
		if got := FileSafe(tt.in); got != tt.want {
			t.Errorf("FileSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzFileSafe checks that no input makes FileSafe yield a name that
// leaves or names its directory.
func FuzzFileSafe(f *testing.F) {
	for _, s := range []string{"", ".", "..", "../x", `..\x`, ".bashrc", "a/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := FileSafe(s)
		if got == "" || strings.HasPrefix(got, ".") || strings.ContainsAny(got, `/\:`+"\x00") || len(got) > 40 || filepath.Base(got) != got {
			t.Errorf("FileSafe(%q) = %q", s, got)
		}
	})
}
