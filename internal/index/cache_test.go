package index

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// answers is everything the commands read of an index: the sessions and
// every stats table.
type answers struct {
	Sessions []Session
	Stats    map[string]*Table
	Errors   []FileError
}

func answersOf(t *testing.T, ix *Index, state string) answers {
	t.Helper()
	if _, err := ix.Sync(filepath.Join(state, "sessions")); err != nil {
		t.Fatal(err)
	}
	a := answers{Stats: map[string]*Table{}}
	var err error
	if a.Sessions, err = ix.Sessions(Filter{}); err != nil {
		t.Fatal(err)
	}
	for _, by := range Bys() {
		if a.Stats[by], err = ix.Stats(Filter{}, by); err != nil {
			t.Fatal(err)
		}
	}
	if a.Errors, err = ix.FileErrors(); err != nil {
		t.Fatal(err)
	}
	return a
}

func testOptions() genOptions {
	return genOptions{Sessions: 12, Calls: 15, Newest: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Spacing: 5 * time.Hour, Seed: 9}
}

// freshAnswers builds an index in another state directory over a copy of
// the sessions of state: what a first run gives.
func freshAnswers(t *testing.T, state string) answers {
	t.Helper()
	other := t.TempDir()
	if err := os.CopyFS(filepath.Join(other, "sessions"), os.DirFS(filepath.Join(state, "sessions"))); err != nil {
		t.Fatal(err)
	}
	ix := openSynced(t, other)
	a := answersOf(t, ix, other)
	for i := range a.Sessions {
		a.Sessions[i].Path = filepath.Join(state, "sessions", filepath.Base(a.Sessions[i].Path))
	}
	return a
}

func TestDeletedIndexIsRebuilt(t *testing.T) {
	state, _ := genFixture(t, testOptions())
	ix := openSynced(t, state)
	before := answersOf(t, ix, state)
	if len(before.Sessions) != 12 {
		t.Fatalf("%d sessions indexed, want 12", len(before.Sessions))
	}
	ix.Close()
	if err := os.Remove(filepath.Join(state, FileName)); err != nil {
		t.Fatal(err)
	}
	ix = openSynced(t, state) // fails on any warning
	if diff := gocmp.Diff(before, answersOf(t, ix, state)); diff != "" {
		t.Errorf("after deleting the index (-before +after):\n%s", diff)
	}
}

func TestCorruptIndexIsRebuiltWithAWarning(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(b []byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:100] }},
		{"pages", func(b []byte) []byte {
			for i := 4096 + 16; i < len(b); i++ {
				b[i] = byte(i*31) ^ 0x5a
			}
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, _ := genFixture(t, testOptions())
			ix := openSynced(t, state)
			before := answersOf(t, ix, state)
			ix.Close()
			path := filepath.Join(state, FileName)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.corrupt(b), 0o600); err != nil {
				t.Fatal(err)
			}
			var warnings []string
			ix, err = Open(state, func(s string) { warnings = append(warnings, s) })
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			after := answersOf(t, ix, state)
			if diff := gocmp.Diff(before, after); diff != "" {
				t.Errorf("after corrupting the index (-before +after):\n%s", diff)
			}
			if len(warnings) != 1 || strings.Contains(warnings[0], "\n") || !strings.Contains(warnings[0], "rebuilding it") {
				t.Errorf("warnings = %q, want one line saying the index is rebuilt", warnings)
			}
		})
	}
}

func TestCaptureEditedBehindTheIndexsBack(t *testing.T) {
	state, ss := genFixture(t, testOptions())
	ix := openSynced(t, state)
	answersOf(t, ix, state)
	dir := filepath.Join(state, "sessions")

	// Relabel one capture (same size: only its mtime tells), cut another
	// short (its end record and last call gone), delete a third, add one.
	relabel(t, &ss[0])
	cut := ss[1].path
	b, err := os.ReadFile(cut)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	if err := os.WriteFile(cut, bytes.Join(lines[:len(lines)-3], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(ss[2].path); err != nil {
		t.Fatal(err)
	}
	o := testOptions()
	o.Sessions, o.Seed, o.Newest = 1, 77, o.Newest.Add(time.Hour)
	added, err := generate(filepath.Join(state, "new"), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(added[0].path, filepath.Join(dir, filepath.Base(added[0].path))); err != nil {
		t.Fatal(err)
	}

	got := answersOf(t, ix, state)
	if diff := gocmp.Diff(freshAnswers(t, state), got); diff != "" {
		t.Errorf("after editing captures (-fresh index +kept index):\n%s", diff)
	}
	labels := map[string]string{}
	ended := map[string]bool{}
	for _, s := range got.Sessions {
		labels[s.ID], ended[s.ID] = s.Label, s.Ended
	}
	if labels[ss[0].id] != strings.Repeat("z", len(ss[0].label)) {
		t.Errorf("relabelled session: label %q", labels[ss[0].id])
	}
	if ended[ss[1].id] {
		t.Errorf("cut session still ended")
	}
	if _, ok := labels[ss[2].id]; ok {
		t.Errorf("deleted capture still listed")
	}
	if _, ok := labels[added[0].id]; !ok || len(got.Sessions) != 12 {
		t.Errorf("added capture not listed (%d sessions)", len(got.Sessions))
	}
}

// relabel replaces s's label in its capture by as many z's, keeping the
// size, and moves its modification time on.
func relabel(t *testing.T, s *genSession) {
	t.Helper()
	b, err := os.ReadFile(s.path)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"label":"`+s.label+`"`), []byte(`"label":"`+strings.Repeat("z", len(s.label))+`"`), 1)
	if err := os.WriteFile(s.path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(s.path, later, later); err != nil {
		t.Fatal(err)
	}
}

// TestUpdateIndexesOneCapture: a tap's end indexes its capture alone; the
// next Sync adds the others and keeps it.
func TestUpdateIndexesOneCapture(t *testing.T) {
	state, ss := genFixture(t, genOptions{Sessions: 3, Calls: 4, Newest: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Spacing: time.Hour, Seed: 5})
	ix, err := Open(state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Update(ss[1].path); err != nil {
		t.Fatal(err)
	}
	got, err := ix.Sessions(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != ss[1].id || got[0].Calls != 4 || !got[0].Ended {
		t.Fatalf("after Update: %+v, want session %s alone, 4 calls, ended", got, ss[1].id)
	}
	n, err := ix.Sync(filepath.Dir(ss[0].path))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("Sync read %d files, want the 2 not yet indexed", n)
	}
}

func TestIndexFileIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	state := filepath.Join(t.TempDir(), "state")
	ix, err := Open(state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for path, want := range map[string]os.FileMode{state: 0o700 | os.ModeDir, filepath.Join(state, FileName): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode(), want)
		}
	}
}

func TestAppendedSessionsAndUnreadableFiles(t *testing.T) {
	state, ss := genFixture(t, genOptions{Sessions: 2, Calls: 3, Newest: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Spacing: time.Hour, Seed: 3})
	var both []byte
	for _, s := range ss {
		b, err := os.ReadFile(s.path)
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, b...)
		if err := os.Remove(s.path); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(state, "sessions")
	if err := os.WriteFile(filepath.Join(dir, "20261130T000000.000000Z-both-x.jsonl"), both, 0o600); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "20261201T000000.000000Z-junk-y.jsonl")
	if err := os.WriteFile(junk, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ix := openSynced(t, state)
	a := answersOf(t, ix, state)
	var got []string
	for _, s := range a.Sessions {
		got = append(got, s.ID+"@"+string(rune('0'+s.Ord)))
	}
	if diff := gocmp.Diff([]string{ss[0].id + "@0", ss[1].id + "@1"}, got); diff != "" {
		t.Errorf("sessions of an appended file (-want +got):\n%s", diff)
	}
	if len(a.Errors) != 1 || a.Errors[0].Path != junk || !strings.Contains(a.Errors[0].Err, "not an mcptrail capture") {
		t.Errorf("file errors = %+v, want the junk file", a.Errors)
	}
}

// TestConcurrentFirstRuns: several commands started at once on a state
// directory with no index (each its own connection, as separate processes
// are) all create it and answer alike; none drops the tables another has
// begun to fill.
func TestConcurrentFirstRuns(t *testing.T) {
	opts := testOptions()
	opts.Sessions = 4
	for round := range 5 {
		state, _ := genFixture(t, opts)
		const n = 6
		got := make([][]Session, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				ix, err := Open(state, nil)
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
	}
}
