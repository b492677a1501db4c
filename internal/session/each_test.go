package session_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/session"
)

func TestEachReadsEverySessionInOrder(t *testing.T) {
	_, _, newer := sessionsDir(t)
	var ids []string
	err := session.Each(newer, func(r *capture.Reader) error {
		ids = append(ids, r.Header().SessionID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"aaab2222", "cccc3333"}, ids); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
}

func TestEachStopsAtFnError(t *testing.T) {
	_, _, newer := sessionsDir(t)
	stop := errors.New("stop")
	n := 0
	err := session.Each(newer, func(*capture.Reader) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("Each = %v after %d calls; want stop after 1", err, n)
	}
	err = session.Each(newer+".gone", func(*capture.Reader) error { t.Error("fn called"); return nil })
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Each(missing) = %v; want fs.ErrNotExist", err)
	}
}

func TestEachInWalksCapturesInNameOrder(t *testing.T) {
	dir, older, newer := sessionsDir(t)
	write(t, dir, "notes.txt", "not a capture\n")
	if err := os.Mkdir(filepath.Join(dir, "sub.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	var paths []string
	err := session.EachIn(dir, func(p string) error {
		paths = append(paths, p)
		return fmt.Errorf("bad %s", filepath.Base(p))
	})
	if diff := cmp.Diff([]string{older, newer}, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	want := "bad " + filepath.Base(older) + "\nbad " + filepath.Base(newer)
	if err == nil || err.Error() != want {
		t.Errorf("EachIn = %v; want the errors joined: %q", err, want)
	}
}

func TestEachInDirErrors(t *testing.T) {
	empty := t.TempDir()
	write(t, empty, "notes.txt", "not a capture\n")
	missing := filepath.Join(empty, "gone")
	for _, tc := range []struct {
		dir     string
		missing bool
	}{{empty, false}, {missing, true}} {
		err := session.EachIn(tc.dir, func(string) error { t.Error("fn called"); return nil })
		var de *session.DirError
		if !errors.As(err, &de) || de.Dir != tc.dir {
			t.Fatalf("EachIn(%s) = %v; want a *DirError for it", tc.dir, err)
		}
		if got := errors.Is(err, fs.ErrNotExist); got != tc.missing {
			t.Errorf("EachIn(%s) = %v; fs.ErrNotExist %v, want %v", tc.dir, err, got, tc.missing)
		}
	}
}
