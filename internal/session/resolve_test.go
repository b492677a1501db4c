package session_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/session"
)

// capt returns a capture of one session for each id, one after another
// (as --append writes them).
func capt(ids ...string) string {
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(strings.Replace(nullReused, `"session_id":"s"`, `"session_id":"`+id+`"`, 1))
	}
	return b.String()
}

// write writes text to name in dir and returns its path.
func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// sessionsDir makes a sessions directory of two files, the newer holding
// an appended session, and returns it with the files' paths.
func sessionsDir(t *testing.T) (dir, older, newer string) {
	t.Helper()
	dir = t.TempDir()
	older = write(t, dir, "20260728T090000.000000Z-a-aaaa1111.jsonl", capt("aaaa1111"))
	newer = write(t, dir, "20260729T090000.000000Z-b-aaab2222.jsonl", capt("aaab2222", "cccc3333"))
	return dir, older, newer
}

func TestResolveFindsFilesAndAppendedSessions(t *testing.T) {
	dir, older, newer := sessionsDir(t)
	for _, tc := range []struct{ arg, path, id string }{
		{"", newer, ""},
		{"aaaa", older, "aaaa"},
		{"aaab2222", newer, "aaab2222"},
		{"ccc", newer, "cccc3333"},
	} {
		path, id, err := session.Resolve(dir, tc.arg, nil)
		if err != nil || path != tc.path || id != tc.id {
			t.Errorf("Resolve(%q) = %q, %q, %v; want %q, %q", tc.arg, path, id, err, tc.path, tc.id)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	dir, _, _ := sessionsDir(t)
	sub := filepath.Join(dir, "zz")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		dir, arg string
		want     session.ResolveError
	}{
		{dir, "aa", session.ResolveError{Kind: session.Ambiguous, Arg: "aa", Dir: dir, Matches: []string{"aaab2222", "aaaa1111"}}},
		{dir, "dd", session.ResolveError{Kind: session.NoMatch, Arg: "dd", Dir: dir}},
		{dir, "zz", session.ResolveError{Kind: session.DirNoMatch, Arg: "zz", Dir: dir}},
		{sub, "", session.ResolveError{Kind: session.NoSessions, Dir: sub}},
	} {
		_, _, err := session.Resolve(tc.dir, tc.arg, nil)
		var re *session.ResolveError
		if !errors.As(err, &re) {
			t.Fatalf("Resolve(%q, %q) = %v; want a *ResolveError", tc.dir, tc.arg, err)
		}
		if diff := cmp.Diff(tc.want, *re); diff != "" {
			t.Errorf("Resolve(%q, %q) (-want +got):\n%s", tc.dir, tc.arg, diff)
		}
	}
}

func TestResolveSkipsUnreadableFiles(t *testing.T) {
	dir, _, newer := sessionsDir(t)
	bad := write(t, dir, "20260730T090000.000000Z-c-dddd4444.jsonl", "not a capture\n")
	var skipped []string
	path, id, err := session.Resolve(dir, "cccc", func(p string, err error) {
		skipped = append(skipped, p)
		if err == nil {
			t.Errorf("skip(%s) with no error", p)
		}
	})
	if err != nil || path != newer || id != "cccc3333" {
		t.Errorf("Resolve = %q, %q, %v; want %q, cccc3333", path, id, err, newer)
	}
	if diff := cmp.Diff([]string{bad}, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestCapturePath(t *testing.T) {
	dir, older, _ := sessionsDir(t)
	t.Chdir(dir)
	for _, tc := range []struct {
		arg, path string
		kind      session.ResolveKind
	}{
		{"", "", 0},
		{older, older, 0},
		{"aaaa1111", "", 0},
		{dir, "", session.IsDirectory},
		{filepath.Join(dir, "missing.jsonl"), "", session.CannotOpen},
		{"missing.jsonl", "", session.CannotOpen},
	} {
		path, err := session.CapturePath(tc.arg)
		var re *session.ResolveError
		kind := session.ResolveKind(0)
		if errors.As(err, &re) {
			kind = re.Kind
		} else if err != nil {
			t.Errorf("CapturePath(%q) = %v; want a *ResolveError", tc.arg, err)
		}
		if path != tc.path || kind != tc.kind {
			t.Errorf("CapturePath(%q) = %q, kind %d; want %q, kind %d", tc.arg, path, kind, tc.path, tc.kind)
		}
		if kind == session.CannotOpen && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("CapturePath(%q) = %v; want fs.ErrNotExist", tc.arg, err)
		}
	}
}

func TestIndexFile(t *testing.T) {
	_, _, newer := sessionsDir(t)
	idx, err := session.IndexFile(newer)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range idx {
		ids = append(ids, s.Header.SessionID)
	}
	if diff := cmp.Diff([]string{"aaab2222", "cccc3333"}, ids); diff != "" {
		t.Errorf("IndexFile ids (-want +got):\n%s", diff)
	}
	if _, err := session.IndexFile(newer + ".gone"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("IndexFile(missing) = %v; want fs.ErrNotExist", err)
	}
}
