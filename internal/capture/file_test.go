package capture

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	hdrA = `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"aaaa","transport":"stdio","pid":4242}` + "\n"
	recA = `{"type":"stderr","seq":1,"time":"2026-07-28T09:00:01Z","text":"a"}` + "\n"
	endA = `{"type":"end","time":"2026-07-28T09:00:02Z"}` + "\n"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeString(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCreateFileModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		existing string // "" no file
		mode     Mode
		wantErr  error
		want     string // content after writing "new\n"
	}{
		{"exclusive new", "", Exclusive, nil, "new\n"},
		{"exclusive existing", hdrA, Exclusive, ErrExists, hdrA},
		{"append new", "", Append, nil, "new\n"},
		{"append existing", hdrA + endA, Append, nil, hdrA + endA + "new\n"},
		{"append after a torn tail", hdrA + `{"type":"std`, Append, nil, hdrA + `{"type":"std` + "\nnew\n"},
		{"truncate existing", hdrA + endA, Truncate, nil, "new\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "sub", "c.jsonl")
			if tt.existing != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				writeString(t, path, tt.existing)
			}
			f, err := CreateFile(path, tt.mode)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("CreateFile: %v, want %v", err, tt.wantErr)
			}
			if err == nil {
				if _, err := f.WriteString("new\n"); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if got := readString(t, path); got != tt.want {
				t.Errorf("content %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCreateFileRefusesSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.jsonl"), filepath.Join(dir, "link.jsonl")
	writeString(t, target, hdrA)
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	dangling := filepath.Join(dir, "dangling.jsonl")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, dangling} {
		for _, mode := range []Mode{Exclusive, Append, Truncate} {
			f, err := CreateFile(p, mode)
			if !errors.Is(err, ErrSymlink) {
				t.Errorf("CreateFile(%s, %d) = %v, want ErrSymlink", filepath.Base(p), mode, err)
			}
			if f != nil {
				f.Close()
			}
		}
	}
	if got := readString(t, target); got != hdrA {
		t.Errorf("target changed to %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dangling link's target was created: %v", err)
	}
}

func TestCreateFileLock(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no advisory lock on this platform")
	}
	path := filepath.Join(t.TempDir(), "c.jsonl")
	first, err := CreateFile(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := first.WriteString(hdrA); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{Append, Truncate} {
		_, err := CreateFile(path, mode)
		var le *LockedError
		if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
			t.Fatalf("second writer (mode %d): %v, want a LockedError", mode, err)
		}
		if le.Holder == nil || le.Holder.PID != 4242 || !strings.Contains(err.Error(), "pid 4242, session aaaa") {
			t.Errorf("second writer's error %q does not name the holder", err)
		}
	}
	// Exclusive fails on the name, and also says the file is in use.
	if _, err := CreateFile(path, Exclusive); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "pid 4242") {
		t.Errorf("exclusive on a held file: %v", err)
	}
	if got := readString(t, path); got != hdrA {
		t.Errorf("holder's capture changed to %q", got)
	}
	first.Close()
	again, err := CreateFile(path, Append)
	if err != nil {
		t.Fatalf("after the holder closed: %v", err)
	}
	again.Close()
}

func TestDiscard(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	created := filepath.Join(dir, "new.jsonl")
	f, err := CreateFile(created, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(hdrA); err != nil {
		t.Fatal(err)
	}
	if err := f.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(created); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("created file left behind: %v", err)
	}
	appended := filepath.Join(dir, "old.jsonl")
	writeString(t, appended, hdrA+recA+endA)
	g, err := CreateFile(appended, Append)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteString(hdrA); err != nil {
		t.Fatal(err)
	}
	if err := g.Discard(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, appended); got != hdrA+recA+endA {
		t.Errorf("appended file after Discard %q, want its earlier content", got)
	}
	// --append that created the file removes it too.
	fresh := filepath.Join(dir, "fresh.jsonl")
	h, err := CreateFile(fresh, Append)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file created by --append left behind: %v", err)
	}
}

// TestDiscardLeavesAReplacement: a file put at the capture's path after
// it was created (the capture renamed away) is not this run's, and
// Discard leaves it alone.
func TestDiscardLeavesAReplacement(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	f, err := CreateFile(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, filepath.Join(dir, "moved.jsonl")); err != nil {
		f.Close()
		t.Skipf("an open file cannot be renamed here: %v", err) // Windows
	}
	writeString(t, path, "someone else's\n")
	if err := f.Discard(); !errors.Is(err, ErrPathTaken) {
		t.Errorf("Discard = %v, want ErrPathTaken", err)
	}
	if got := readString(t, path); got != "someone else's\n" {
		t.Errorf("the file in the capture's place is now %q", got)
	}
}

func TestAppendRefusesNonCapture(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.txt")
	writeString(t, path, "my notes\n")
	if f, err := CreateFile(path, Append); !errors.Is(err, ErrNotCapture) {
		t.Errorf("CreateFile(Append) on a text file = %v, want ErrNotCapture", err)
		if f != nil {
			f.Close()
		}
	}
	if got := readString(t, path); got != "my notes\n" {
		t.Errorf("text file changed to %q", got)
	}
}

func TestIsCapture(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"capture.jsonl": hdrA + recA,
		"future.jsonl":  `{"type":"session","time":"2026-07-28T09:00:00Z","format":99}` + "\n",
		"export.json":   `{"session":{"id":"x"}}` + "\n",
		"empty":         "",
	}
	for name, s := range files {
		writeString(t, filepath.Join(dir, name), s)
	}
	got := map[string]bool{}
	for _, name := range []string{"capture.jsonl", "future.jsonl", "export.json", "empty", "missing"} {
		ok, err := IsCapture(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got[name] = ok
	}
	want := map[string]bool{"capture.jsonl": true, "future.jsonl": true, "export.json": false, "empty": false, "missing": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("IsCapture (-want +got):\n%s", diff)
	}
}

// TestCreateFileOutlastsBriefHolder: a lock held for a moment (a reader's
// liveness probe, a forked child before its exec) does not make the next
// writer fail; it gets the lock once the holder lets go.
func TestCreateFileOutlastsBriefHolder(t *testing.T) {
	t.Parallel()
	if !lockProbed {
		t.Skip("no advisory lock on this platform")
	}
	// A loaded machine may stall the releasing goroutine past lockWait;
	// only an attempt whose release came well within it counts.
	for range 5 {
		released, err := briefHolder(t)
		if err == nil {
			return
		}
		if released < lockWait/2 {
			t.Fatalf("writer after a holder that let go %v into its wait: %v", released, err)
		}
		t.Logf("the holder let go only %v into the writer's wait: trying again", released)
	}
	t.Skip("the machine is too loaded to let go of a lock in time")
}

// briefHolder locks a capture, lets go of it lockWait/4 later, and opens it
// for a writer meanwhile: how long into the writer's wait the holder let
// go, and the writer's error.
func briefHolder(t *testing.T) (time.Duration, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.jsonl")
	writeString(t, path, hdrA)
	holder, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := lockFile(holder); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	released := make(chan time.Duration, 1)
	go func() {
		time.Sleep(lockWait / 4) // a holder letting go during the writer's real-time lock wait, which nothing can signal
		unlockFile(holder)
		released <- time.Since(start)
	}()
	f, err := CreateFile(path, Append)
	if err == nil {
		f.Close()
	}
	return <-released, err
}
