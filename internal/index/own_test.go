package index

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// execSQL runs statements on the SQLite database at path (creating it).
func execSQL(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// tree is every entry under dir: its mode, and its bytes or link target.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			v += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ourIndex makes an index of ours, synced over a generated session, in a
// state directory of its own, and returns its path.
func ourIndex(t *testing.T) string {
	t.Helper()
	o := testOptions()
	o.Sessions = 2
	state, _ := genFixture(t, o)
	ix := openSynced(t, state)
	ix.Close()
	return filepath.Join(state, FileName)
}

// TestForeignFilesAreLeftAlone: whatever sits at the index's place (or
// beside it) that mcptrail did not make, Open refuses it with an error
// naming it and changes nothing, in the state directory or outside it: no
// byte, no deleted or created file, no link followed.
func TestForeignFilesAreLeftAlone(t *testing.T) {
	for _, tc := range []struct {
		name   string
		make   func(t *testing.T, path, outside string)
		bad    string // the file named, relative to the index's path
		reason string
	}{
		{"text", func(t *testing.T, path, _ string) { writeFile(t, path, "my notes, not an index\n") }, "", "not an SQLite database"},
		{"short", func(t *testing.T, path, _ string) { writeFile(t, path, "SQLite format 3\x00") }, "", "not an SQLite database"},
		{"sqlite of another version", func(t *testing.T, path, _ string) {
			execSQL(t, path, "CREATE TABLE files(name TEXT)", "CREATE TABLE sessions(who TEXT)", "CREATE TABLE calls(n INTEGER)",
				"INSERT INTO calls VALUES(42)", "PRAGMA user_version = 7")
		}, "", "without mcptrail's mark: application_id 0, user_version 7"},
		{"sqlite of no version", func(t *testing.T, path, _ string) {
			execSQL(t, path, "CREATE TABLE files(path TEXT PRIMARY KEY)", "CREATE TABLE sessions(sid INTEGER)")
		}, "", "without mcptrail's mark: application_id 0, user_version 0"},
		{"sqlite of our version but not our schema", func(t *testing.T, path, _ string) {
			execSQL(t, path, "CREATE TABLE files(path TEXT PRIMARY KEY)", "CREATE TABLE sessions(sid INTEGER)", "CREATE TABLE calls(sid INTEGER)",
				"PRAGMA user_version = 2")
		}, "", "without mcptrail's mark: application_id 0, user_version 2"},
		{"sqlite of another application", func(t *testing.T, path, _ string) {
			execSQL(t, path, "CREATE TABLE files(path TEXT)", "PRAGMA application_id = 1179603533", "PRAGMA user_version = 2")
		}, "", "another application: application_id 0x464f524d"},
		{"empty sqlite", func(t *testing.T, path, _ string) { execSQL(t, path, "CREATE TABLE x(a)", "DROP TABLE x") }, "",
			"without mcptrail's mark"},
		{"wal-mode sqlite", func(t *testing.T, path, _ string) {
			execSQL(t, path, "PRAGMA journal_mode = WAL", "CREATE TABLE sessions(x)", "INSERT INTO sessions VALUES(1)")
		}, "", "without mcptrail's mark"},
		{"stray wal", func(t *testing.T, path, _ string) { writeFile(t, path+"-wal", "not ours") }, "-wal", "a write-ahead log"},
		{"wal beside our index", func(t *testing.T, path, _ string) {
			copyFile(t, ourIndex(t), path)
			writeFile(t, path+"-wal", "not ours")
		}, "-wal", "a write-ahead log"},
		{"link to a database outside", func(t *testing.T, path, outside string) {
			target := filepath.Join(outside, "target.db")
			execSQL(t, target, "CREATE TABLE sessions(x)", "INSERT INTO sessions VALUES(1)")
			symlink(t, target, path)
		}, "", "a symbolic link"},
		{"link to an index of ours outside", func(t *testing.T, path, outside string) {
			target := filepath.Join(outside, "index.db")
			copyFile(t, ourIndex(t), target)
			symlink(t, target, path)
		}, "", "a symbolic link"},
		{"link to nothing", func(t *testing.T, path, outside string) {
			symlink(t, filepath.Join(outside, "nothing.db"), path)
		}, "", "a symbolic link"},
		{"directory", func(t *testing.T, path, _ string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}, "", "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkForeign(t, tc.make, tc.bad, tc.reason) })
	}
}

// checkForeign makes a file with mk, beside the index's path (and, if it
// likes, in a directory outside the state directory), and checks that
// Open refuses the file path+bad, saying reason, and changes nothing.
func checkForeign(t *testing.T, mk func(t *testing.T, path, outside string), bad, reason string) {
	t.Helper()
	state, _ := genFixture(t, genOptions{Sessions: 1, Calls: 2, Newest: testOptions().Newest, Spacing: 1, Seed: 2})
	outside := t.TempDir()
	path := filepath.Join(state, FileName)
	mk(t, path, outside)
	before, beforeOut := tree(t, state), tree(t, outside)
	ix, err := Open(state, func(s string) { t.Errorf("warning: %s", s) })
	if err == nil {
		ix.Close()
		t.Fatal("Open took it")
	}
	var fe *ForeignError
	if !errors.As(err, &fe) || fe.Path != path+bad || !strings.Contains(fe.Reason, reason) {
		t.Errorf("Open: %v, want a ForeignError for %s saying %q", err, path+bad, reason)
	}
	if msg := err.Error(); !strings.Contains(msg, "left untouched; move it away") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line saying what to do", msg)
	}
	if diff := gocmp.Diff(before, tree(t, state)); diff != "" {
		t.Errorf("the state directory changed (-before +after):\n%s", diff)
	}
	if diff := gocmp.Diff(beforeOut, tree(t, outside)); diff != "" {
		t.Errorf("outside the state directory (-before +after):\n%s", diff)
	}
}

// TestStaleIndexIsMovedAside: an index of ours of another version is
// moved, byte for byte, to index.db.old, said so in one line, and built
// anew; the next one replaces it, so there is never more than one.
func TestStaleIndexIsMovedAside(t *testing.T) {
	state, _ := genFixture(t, testOptions())
	want := freshAnswers(t, state)
	path := filepath.Join(state, FileName)
	for _, version := range []int{1, 2, schemaVersion + 1} {
		openSynced(t, state).Close()
		execSQL(t, path, fmt.Sprintf("PRAGMA user_version = %d", version), "DELETE FROM files")
		stale := slurp(t, path)
		var warnings []string
		ix, err := Open(state, func(s string) { warnings = append(warnings, s) })
		if err != nil {
			t.Fatal(err)
		}
		if got := answersOf(t, ix, state); !gocmp.Equal(want, got) {
			t.Errorf("version %d: answers differ from a fresh index's:\n%s", version, gocmp.Diff(want, got))
		}
		ix.Close()
		old := path + OldSuffix
		wantWarn := "mcptrail: warning: the session index " + path + " was made by another version of mcptrail; moved it to " + old + " and rebuilding it from the captures"
		if diff := gocmp.Diff([]string{wantWarn}, warnings); diff != "" {
			t.Errorf("version %d: warnings (-want +got):\n%s", version, diff)
		}
		if !bytes.Equal(slurp(t, old), stale) {
			t.Errorf("version %d: %s is not the old index byte for byte", version, old)
		}
		names, err := filepath.Glob(filepath.Join(state, "index*"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff([]string{path, old}, names); diff != "" {
			t.Errorf("version %d: index files (-want +got):\n%s", version, diff)
		}
	}
}

// TestUnmarkedIndexIsOurs: an index made before the mark (application_id
// 0, version 2, the version 2 schema) is ours, never left as foreign: of
// an older schema now, it is moved aside, said so, and built anew.
func TestUnmarkedIndexIsOurs(t *testing.T) {
	state, _ := genFixture(t, testOptions())
	want := freshAnswers(t, state)
	openSynced(t, state).Close()
	path := filepath.Join(state, FileName)
	// Version 2's schema: sessions without server_requests.
	execSQL(t, path, "ALTER TABLE sessions DROP COLUMN server_requests", "PRAGMA application_id = 0",
		fmt.Sprintf("PRAGMA user_version = %d", unmarkedVersion))
	var warnings []string
	ix, err := Open(state, func(s string) { warnings = append(warnings, s) })
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got := answersOf(t, ix, state); !gocmp.Equal(want, got) {
		t.Errorf("answers differ from a fresh index's:\n%s", gocmp.Diff(want, got))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "was made by another version of mcptrail") {
		t.Errorf("warnings %q, want one saying the index was moved aside", warnings)
	}
	var app int32
	if err := ix.db.QueryRow("PRAGMA application_id").Scan(&app); err != nil || app != applicationID {
		t.Errorf("application_id = %#x (%v), want %#x", app, err, applicationID)
	}
	if _, err := os.Lstat(path + OldSuffix); err != nil {
		t.Errorf("%s%s: %v, want the old index there", path, OldSuffix, err)
	}
}

// TestUnmarkedObjects: a new index holds exactly the objects an unmarked
// index (version 2) is recognised by: version 3 added a column
// (sessions.server_requests), no table or index. A schema that changes
// the objects must keep unmarkedObjects as version 2's and change this.
func TestUnmarkedObjects(t *testing.T) {
	path := ourIndex(t)
	got, err := objectsOf(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(unmarkedObjects(), got); diff != "" {
		t.Errorf("objects (-unmarkedObjects +new index):\n%s", diff)
	}
}

// TestForeignOldIsNeverReplaced: a stale index is not moved over an
// index.db.old mcptrail did not make: both stay as they are.
func TestForeignOldIsNeverReplaced(t *testing.T) {
	for _, name := range []string{"text", "empty", "link"} {
		t.Run(name, func(t *testing.T) {
			state, _ := genFixture(t, genOptions{Sessions: 1, Calls: 2, Newest: testOptions().Newest, Spacing: 1, Seed: 2})
			openSynced(t, state).Close()
			path := filepath.Join(state, FileName)
			execSQL(t, path, "PRAGMA user_version = 1")
			old := path + OldSuffix
			switch name {
			case "text":
				writeFile(t, old, "my notes")
			case "empty":
				writeFile(t, old, "")
			case "link":
				symlink(t, filepath.Join(t.TempDir(), "x"), old)
			}
			before := tree(t, state)
			_, err := Open(state, func(s string) { t.Errorf("warning: %s", s) })
			var fe *ForeignError
			if !errors.As(err, &fe) || fe.Path != old {
				t.Errorf("Open: %v, want a ForeignError for %s", err, old)
			}
			if diff := gocmp.Diff(before, tree(t, state)); diff != "" {
				t.Errorf("the state directory changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestCorruptIndexIsMovedAside: a damaged index of ours goes to
// index.db.old as it was, found at Open or in the middle of a read.
func TestCorruptIndexIsMovedAside(t *testing.T) {
	state, _ := genFixture(t, testOptions())
	path := filepath.Join(state, FileName)
	openSynced(t, state).Close()
	b := slurp(t, path)
	for i := 4096 + 16; i < len(b); i++ {
		b[i] = byte(i*31) ^ 0x5a
	}
	writeFile(t, path, string(b))
	var warnings []string
	ix, err := Open(state, func(s string) { warnings = append(warnings, s) })
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(filepath.Join(state, "sessions")); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "was unreadable") || !strings.Contains(warnings[0], "moved it to "+path+OldSuffix) {
		t.Errorf("warnings = %q, want one saying where the damaged index went", warnings)
	}
	if !bytes.Equal(slurp(t, path+OldSuffix), b) {
		t.Errorf("%s%s is not the damaged index byte for byte", path, OldSuffix)
	}
}

// TestConcurrentStaleRuns: several commands started at once on a stale
// index all answer alike; the index is moved aside once, as it was.
func TestConcurrentStaleRuns(t *testing.T) {
	opts := testOptions()
	opts.Sessions = 4
	for round := range 5 {
		state, _ := genFixture(t, opts)
		path := filepath.Join(state, FileName)
		openSynced(t, state).Close()
		execSQL(t, path, "PRAGMA user_version = 1")
		stale := slurp(t, path)
		const n = 6
		got := make([][]Session, n)
		errs := make([]error, n)
		var mu sync.Mutex
		var warnings []string
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				ix, err := Open(state, func(s string) { mu.Lock(); warnings = append(warnings, s); mu.Unlock() })
				if err != nil {
					errs[i] = err
					return
				}
				defer ix.Close()
				if _, err = ix.Sync(filepath.Join(state, "sessions")); err == nil {
					got[i], err = ix.Sessions(Filter{})
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("round %d, command %d: %v", round, i, errs[i])
			}
			if diff := gocmp.Diff(got[0], got[i]); diff != "" || len(got[i]) != opts.Sessions {
				t.Fatalf("round %d, command %d: %d sessions, and (-first +this):\n%s", round, i, len(got[i]), diff)
			}
		}
		if len(warnings) != 1 || !bytes.Equal(slurp(t, path+OldSuffix), stale) {
			t.Fatalf("round %d: warnings %q, want one move of the stale index", round, warnings)
		}
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func slurp(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	writeFile(t, to, string(slurp(t, from)))
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}
