package testbin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NoCanary fails t when got, described by what, holds canary, quoting the
// text around it.
func NoCanary(t testing.TB, canary, what, got string) {
	t.Helper()
	if i := strings.Index(got, canary); i >= 0 {
		t.Errorf("%s holds the canary: …%s…", what, got[max(0, i-120):min(len(got), i+40)])
	}
}

// NoCanaryInDir fails t when a path under dir, or (with contents set) a
// file's contents, holds canary, and when dir holds no file at all (no
// capture was written).
func NoCanaryInDir(t testing.TB, dir, canary string, contents bool) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		NoCanary(t, canary, "a file name under the state dir", path)
		if d.IsDir() {
			return nil
		}
		n++
		if !contents {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		NoCanary(t, canary, "the capture "+filepath.Base(path), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no capture was written")
	}
}
