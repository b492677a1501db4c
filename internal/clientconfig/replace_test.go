package clientconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// clientVersion is the n-th version of a ~/.claude.json its client
// writes: the client's own state changes, its server stays unwrapped.
func clientVersion(n int) []byte {
	return fmt.Appendf(nil, "{\n  \"numStartups\": %d,\n  \"mcpServers\": {\n    \"github\": {\"command\": \"docker\", \"args\": [\"run\", \"-i\"]}\n  }\n}\n", n)
}

// clientWrite writes data to path as Claude Code does: a new file
// renamed over it.
func clientWrite(path string, data []byte) error {
	tmp := path + ".client-tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// wrapFile wraps every server of the file at path, as `mcptrail wrap
// --all` does, with the hook step.
func wrapFile(path string, step func(string)) error {
	f, err := Read(path)
	if err != nil {
		return err
	}
	f.step = step
	out, _, err := Wrap(f.Data, Layout{Format: JSON}, nil, &Options{Mcptrail: testMcptrail})
	if err != nil {
		return err
	}
	_, err = f.Replace(out, time.Now())
	return err
}

func wrapped(t *testing.T, data []byte) []byte {
	t.Helper()
	out, _, err := Wrap(data, Layout{Format: JSON}, nil, &Options{Mcptrail: testMcptrail})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReplaceRace plays Claude Code rewriting ~/.claude.json (a new file
// renamed over it, 0 to 3 times) while wrap edits it, 600 times. No
// client write may be lost without an error: each trial ends with wrap's
// change applied to the client's latest version, or with an error and
// that version intact, or with that version and no error when the
// client's last rename came after wrap's (it replaced wrap's file, as any
// later write would). The outcome alone tells which: timing decides how
// often each happens, never whether a trial passes.
func TestReplaceRace(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("on Windows a rename over a file another process has open fails, so the client here would fail, not race")
	}
	dir := t.TempDir()
	var applied, loud, later int
	var lost []string
	for trial := range 600 {
		// A file of its own each trial: Backup takes at most 100 names in
		// one second, and a fast machine runs more trials than that.
		path := filepath.Join(dir, fmt.Sprint(trial), "claude.json")
		if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, clientVersion(0), 0o600); err != nil {
			t.Fatal(err)
		}
		last := trial % 4
		var wg sync.WaitGroup
		start := make(chan struct{})
		wg.Go(func() {
			<-start
			for n := 1; n <= last; n++ {
				if err := clientWrite(path, clientVersion(n)); err != nil {
					t.Error(err)
					return
				}
			}
		})
		close(start)
		err := wrapFile(path, nil)
		wg.Wait()
		final, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		latest := clientVersion(last)
		switch {
		case err == nil && string(final) == string(wrapped(t, latest)):
			applied++
		case err != nil && string(final) == string(latest):
			loud++
		case err == nil && string(final) == string(latest) && last > 0:
			later++
		default:
			lost = append(lost, fmt.Sprintf("trial %d (client wrote %d versions): wrap: %v; the file holds:\n%s", trial, last, err, final))
		}
		if err != nil && !errors.Is(err, ErrChanged) && !errors.Is(err, ErrOverwritten) {
			t.Errorf("trial %d: %v, want ErrChanged or ErrOverwritten", trial, err)
		}
		if left := leftovers(t, filepath.Dir(path)); len(left) > 0 {
			t.Errorf("trial %d: files left beside the config: %q", trial, left)
		}
	}
	t.Logf("applied %d, failed loudly %d, client wrote after wrap %d, lost %d", applied, loud, later, len(lost))
	if len(lost) > 0 {
		t.Errorf("%d client writes lost silently; first:\n%s", len(lost), lost[0])
	}
}

// names lists the files in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// leftovers lists the files in dir besides claude.json and its backups.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	return slices.DeleteFunc(names(t, dir), func(n string) bool {
		return n == "claude.json" || strings.HasPrefix(n, "claude.json.mcptrail-backup-")
	})
}

// canExchange reports whether the file system of dir swaps two files in
// one step.
func canExchange(t *testing.T, dir string) bool {
	t.Helper()
	a, b := filepath.Join(dir, "probe-a"), filepath.Join(dir, "probe-b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(p)
	}
	return exchange(a, b) == nil
}

// TestReplaceClientWritesAt has a client write the file at each step of
// Replace, and checks that its version is what stays, with the error the
// step calls for, and that no temporary file or needless backup is left.
func TestReplaceClientWritesAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		step    string
		inPlace bool // the client truncates and rewrites the file itself
		writes  int  // client writes at that step
		want    error
		swap    bool // needs a one-step swap to be safe
	}{
		{name: "before the last check", step: "written", writes: 1, want: ErrChanged},
		{name: "after the last check", step: "checked", writes: 1, want: ErrChanged, swap: true},
		{name: "in place after the last check", step: "checked", inPlace: true, writes: 1, want: ErrChanged, swap: true},
		{name: "again while restoring", step: "checked", writes: 1, want: ErrChanged, swap: true},
		{name: "right after the swap", step: "replaced", writes: 1, want: ErrOverwritten},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tc.swap && !canExchange(t, dir) {
				t.Skip("this file system cannot swap two files in one step")
			}
			path := filepath.Join(dir, "claude.json")
			if err := os.WriteFile(path, clientVersion(0), 0o600); err != nil {
				t.Fatal(err)
			}
			n := 0
			write := func() {
				n++
				var err error
				if tc.inPlace {
					err = os.WriteFile(path, clientVersion(n), 0o600)
				} else {
					err = clientWrite(path, clientVersion(n))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			err := wrapFile(path, func(step string) {
				switch {
				case step == tc.step && n < tc.writes:
					write()
				case step == "restoring" && tc.name == "again while restoring" && n < 3:
					write() // the client writes again before each swap back
				}
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("Replace: %v, want %v", err, tc.want)
			}
			if got, _ := os.ReadFile(path); string(got) != string(clientVersion(n)) {
				t.Errorf("the file holds\n%s\nwant the client's last version (%d):\n%s", got, n, clientVersion(n))
			}
			// A backup stays only when the new content was in place.
			for _, name := range names(t, dir) {
				if name != "claude.json" && (tc.want == ErrChanged || !strings.HasPrefix(name, "claude.json.mcptrail-backup-")) {
					t.Errorf("left beside the file: %s", name)
				}
			}
		})
	}
}

// TestReplaceRefuses: a read-only file and one with other hard links are
// refused, unchanged, with no backup.
func TestReplaceRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
	}{
		{"read-only", func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
		}, ErrReadOnly},
		{"hard-linked", func(t *testing.T, path string) {
			if runtime.GOOS == "windows" {
				t.Skip("the link count is not read on Windows")
			}
			if err := os.Link(path, path+"-link"); err != nil {
				t.Skip("no hard links here:", err)
			}
		}, ErrHardLinked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "claude.json")
			if err := os.WriteFile(path, clientVersion(0), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, path)
			if err := wrapFile(path, nil); !errors.Is(err, tc.want) {
				t.Errorf("Replace: %v, want %v", err, tc.want)
			}
			if got, _ := os.ReadFile(path); string(got) != string(clientVersion(0)) {
				t.Errorf("the file was changed:\n%s", got)
			}
			if left := names(t, dir); !slices.Equal(slices.DeleteFunc(left, func(s string) bool { return s == "claude.json-link" }), []string{"claude.json"}) {
				t.Errorf("files beside it: %q, want none (no backup)", left)
			}
		})
	}
}
