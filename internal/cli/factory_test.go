package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// testFactory is a Factory over in-memory streams, a temporary state
// directory and a configuration value, for the runX tests.
type testFactory struct {
	*Factory
	out, errOut *bytes.Buffer
	state       string // the state directory
}

// newTestFactory returns a testFactory whose configuration is cfg (nil:
// empty) and whose clock stands at 2026-12-02T04:00:00Z.
func newTestFactory(t *testing.T, cfg *config) *testFactory {
	t.Helper()
	if cfg == nil {
		cfg = &config{}
	}
	tf := &testFactory{out: new(bytes.Buffer), errOut: new(bytes.Buffer), state: t.TempDir()}
	ios := &IOStreams{In: strings.NewReader(""), Out: tf.out, ErrOut: tf.errOut,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC) }}
	tf.Factory = &Factory{
		IOStreams:    ios,
		Config:       func() (*config, error) { return cfg, nil },
		Rules:        func() (*finding.Registry, error) { return readRules(cfg) },
		StateDir:     func() (string, error) { return tf.state, nil },
		LoadSnapshot: loadSnapshot,
		Redactor: func(flags *redactFlags, fs *pflag.FlagSet) (redact.Redactor, error) {
			return flags.redactor(fs, &cfg.Redact)
		},
	}
	return tf
}

// scriptFiles reads the files of the CLI script testdata/script/name, so
// a runX test reads the fixtures the scripts read.
func scriptFiles(t *testing.T, name string) map[string][]byte {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "script", name))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range a.Files {
		files[f.Name] = f.Data
	}
	return files
}

// writeFile writes data to dir/name and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFactoryOnce: the configuration, the registry and the state
// directory are each built once per run, whatever the number of commands'
// calls; a bad configuration is the same usage error on every call.
func TestFactoryOnce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, configFile, []byte("[rules]\ndisable = [\"late-result\"]\n"))
	f := newFactory(&IOStreams{Getenv: func(k string) string {
		if k == "MCPTRAIL_HOME" {
			return filepath.Join(dir, "state")
		}
		return ""
	}})
	c1, err := f.Config()
	if err != nil {
		t.Fatal(err)
	}
	// The file changes after the first read: the run keeps what it read.
	writeFile(t, dir, configFile, []byte("bogus = 1\n"))
	c2, _ := f.Config()
	if c1 != c2 {
		t.Errorf("Config() read the configuration twice")
	}
	r1, err := f.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if r1.Enabled("late-result") {
		t.Errorf("Rules(): late-result enabled; .mcptrail.toml disables it")
	}
	if r2, _ := f.Rules(); r1 != r2 {
		t.Errorf("Rules() built the registry twice")
	}
	if s, err := f.StateDir(); err != nil || s != filepath.Join(dir, "state") {
		t.Errorf("StateDir() = %q, %v; want %q", s, err, filepath.Join(dir, "state"))
	}
	bad := newFactory(&IOStreams{Getenv: func(string) string { return "" }})
	_, err1 := bad.Rules()
	_, err2 := bad.Config()
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || !strings.Contains(err1.Error(), `unknown key "bogus"`) {
		t.Errorf("a bad configuration: Rules() = %v, Config() = %v; want the same unknown-key error", err1, err2)
	}
}
