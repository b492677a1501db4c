package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// trustHome is a home directory for one hostile-configuration run: the
// user's home (HOME, the state directory below it, no XDG variables) and
// a cloned repository in it, as a client starting a wrapped server there
// sees it.
type trustHome struct {
	home, repo string
	env        []string
}

// newTrustHome makes a home holding a repository whose .mcptrail.toml is
// repoConfig, HOME in it replaced by the home directory.
func newTrustHome(t *testing.T, repoConfig string) *trustHome {
	t.Helper()
	home := t.TempDir()
	repo := filepath.Join(home, "src", "repo")
	if err := os.MkdirAll(repo, 0o700); err != nil {
		t.Fatal(err)
	}
	repoConfig = strings.ReplaceAll(repoConfig, "HOME", filepath.ToSlash(home))
	if err := os.WriteFile(filepath.Join(repo, ".mcptrail.toml"), []byte(repoConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "MCPTRAIL_HOME=" + filepath.Join(home, "state")}
	return &trustHome{home: home, repo: repo, env: env}
}

// run runs mcptrail in the repository with args, one request on its
// standard input; a run that does not end within a minute is killed.
func (h *trustHome) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, args...)
	cmd.Dir = h.repo
	cmd.Env = append(os.Environ(), h.env...)
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("running mcptrail: %v", err)
	}
	return errb.String(), cmd.ProcessState.ExitCode()
}

// files lists every file and symbolic link under the home directory.
func (h *trustHome) files(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(h.home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out[p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// added returns the files under the home directory that are not in
// before, but for the sessions index in the state directory.
func (h *trustHome) added(t *testing.T, before map[string]bool) []string {
	t.Helper()
	var out []string
	index := filepath.Join(h.home, "state", "index.db")
	for p := range h.files(t) {
		if !before[p] && !strings.HasPrefix(p, index) {
			out = append(out, p)
		}
	}
	return out
}

// TestHostileRepoConfigCapture: a .mcptrail.toml that sets capture, with
// any template field, a label that climbs, or through a symbolic link out
// of the repository, makes the real proxy (stdio and HTTP) refuse to
// start, naming the key and the user's own file, and write nothing.
func TestHostileRepoConfigCapture(t *testing.T) {
	t.Parallel()
	configs := map[string]string{
		"label climbs":  "label = \"..\"\ncapture = \"{label}/{label}/.bash_profile\"\n",
		"time":          "capture = \"{time}.jsonl\"\n",
		"pid":           "capture = \"{pid}.jsonl\"\n",
		"id":            "capture = \"caps/{id}.jsonl\"\n",
		"label":         "label = \"x\"\ncapture = \"{label}.jsonl\"\n",
		"absolute":      "capture = \"HOME/.bash_profile\"\n",
		"symlinked dir": "capture = \"out/.zshenv\"\n",
	}
	for name, config := range configs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newTrustHome(t, config)
			if err := os.Symlink(h.home, filepath.Join(h.repo, "out")); err != nil {
				t.Fatal(err)
			}
			before := h.files(t)
			marker := filepath.Join(h.home, "server-started")
			for _, args := range [][]string{
				{"--", "sh", "-c", "touch " + marker + "; cat"},
				{"--capture", filepath.Join(h.home, "flag.jsonl"), "--", "cat"},
				{"http", "--target", "http://127.0.0.1:9/mcp", "--listen", "127.0.0.1:0"},
			} {
				errOut, code := h.run(t, args...)
				userFile := filepath.Join(h.home, ".config", "mcptrail", "config.toml")
				if code != 2 || !strings.Contains(errOut, ".mcptrail.toml: capture is not accepted") || !strings.Contains(errOut, userFile) {
					t.Errorf("%v: exit %d, stderr %q; want 2 naming capture and %s", args, code, errOut, userFile)
				}
			}
			if added := h.added(t, before); len(added) > 0 {
				t.Errorf("refused runs wrote %v", added)
			}
		})
	}
}

// TestHostileLabel: a label that tries to climb out of the capture path
// the user chose, from .mcptrail.toml, the --label flag or a server
// command named "..", stays one file name component there: each run adds
// exactly one file, in the directory the user's template names.
func TestHostileLabel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, config string
		user         string // the user's own config.toml; "" for none
		args         []string
	}{
		{"config label, flag template", `label = ".."`, "", []string{"--capture", "HOME/caps/{label}/{label}/{label}.jsonl", "--", "cat"}},
		{"config label, user template", `label = "../../.bashrc"`, `capture = "~/caps/{label}/{label}-{id}.jsonl"`, []string{"--", "cat"}},
		{"flag label", "", "", []string{"--label", "..", "--capture", "HOME/caps/{label}/{label}/.bash_profile", "--", "cat"}},
		{"derived label", "", `capture = "~/caps/{label}/{label}/{time}-{pid}.jsonl"`, []string{"--", "sh", "-c", "python3 -m .. 2>/dev/null; exec cat"}},
		{"state directory", `label = "../../../.bashrc"`, "", []string{"--", "cat"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newTrustHome(t, tt.config)
			want := filepath.Join(h.home, "caps")
			if tt.user != "" {
				dir := filepath.Join(h.home, ".config", "mcptrail")
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(tt.user), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tt.args[0] == "--" && tt.user == "" {
				want = filepath.Join(h.home, "state", "sessions")
			}
			before := h.files(t)
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.Replace(a, "HOME", h.home, 1)
			}
			if errOut, code := h.run(t, args...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			added := h.added(t, before)
			if len(added) != 1 {
				t.Fatalf("the run added %v, want one capture", added)
			}
			if rel, err := filepath.Rel(want, added[0]); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("the capture is %s, outside %s", added[0], want)
			}
			if readCaptureLabel(t, added[0]) == "" {
				t.Errorf("%s holds no session", added[0])
			}
		})
	}
}

// readCaptureLabel returns the label of the capture at path, which must be
// a whole capture.
func readCaptureLabel(t *testing.T, path string) string {
	t.Helper()
	h, _, dmg := readCapture(t, path)
	if dmg.Torn || dmg.Corrupt > 0 {
		t.Errorf("%s is damaged: %+v", path, dmg)
	}
	return h.Label
}
