package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// intentsFile names the file of a testdata directory that says, in one
// line per golden, what each of its *.golden files pins down.
const intentsFile = "intents.toml"

// goldenIntents finds, for the golden at path, the intent its directory
// states: a line of the directory's intents.toml (keyed by file name), the
// intent of the corpus transcript's <name>.expect.toml, or that of the
// drift pair <base>--<session> in pairs.toml.
func goldenIntents(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var lines map[string]string
	if readTOML(t, filepath.Join(dir, intentsFile), &lines) {
		for name, intent := range lines {
			out[name] = intent
		}
	}
	var pairs struct {
		Pair []struct{ Base, Session, Intent string }
	}
	if readTOML(t, filepath.Join(dir, "pairs.toml"), &pairs) {
		for _, p := range pairs.Pair {
			out[p.Base+"--"+p.Session+".golden"] = p.Intent
		}
	}
	return out
}

// expectIntent is the intent of the corpus expectation beside the golden
// <name>.<format>.golden, or "" when there is none.
func expectIntent(t *testing.T, path string) string {
	t.Helper()
	name, _, _ := strings.Cut(filepath.Base(path), ".")
	var expect struct{ Intent string }
	readTOML(t, filepath.Join(filepath.Dir(path), name+".expect.toml"), &expect)
	return expect.Intent
}

// readTOML decodes the TOML file at path into v and reports whether the
// file exists.
func readTOML(t *testing.T, path string, v any) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(b, v); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	return true
}

// goldenDirs lists the module's *.golden files by directory.
func goldenDirs(t *testing.T) map[string][]string {
	t.Helper()
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".golden") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], d.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestGoldenIntents holds every golden file to a stated intent, one line
// saying what it pins down (a golden is a snapshot, not a specification:
// the line is what a reviewer of its diff checks the new snapshot
// against), and every intents.toml line to a golden that exists.
func TestGoldenIntents(t *testing.T) {
	t.Parallel()
	dirs := goldenDirs(t)
	if len(dirs) == 0 {
		t.Fatal("found no golden files")
	}
	for dir, names := range dirs {
		rel, _ := filepath.Rel(root, dir)
		intents := goldenIntents(t, dir)
		for _, name := range names {
			intent, ok := intents[name]
			if !ok {
				intent = expectIntent(t, filepath.Join(dir, name))
			}
			if strings.TrimSpace(intent) == "" {
				t.Errorf("%s/%s states no intent: add a line to %s/%s", rel, name, rel, intentsFile)
			}
		}
		var lines map[string]string
		readTOML(t, filepath.Join(dir, intentsFile), &lines)
		for name := range lines {
			if !slices.Contains(names, name) {
				t.Errorf("%s/%s names %s, which is not a golden there", rel, intentsFile, name)
			}
		}
	}
	for _, dir := range intentsDirs(t) {
		if _, ok := dirs[dir]; !ok {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s/%s states intents, but the directory holds no golden", rel, intentsFile)
		}
	}
}

// intentsDirs lists the directories that hold an intents.toml.
func intentsDirs(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == intentsFile {
			out = append(out, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
