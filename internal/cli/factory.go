package cli

import (
	"sync"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Factory holds what commands depend on, each built at most once per run
// (as gh's cmdutil.Factory): the streams, the configuration files, the
// rules registry they grade findings with, the state directory and the
// redactor of a command that reads captures. A command takes from it what
// it needs into its Options; a test builds one over in-memory streams, a
// temporary state directory and a configuration value (newTestFactory).
// A Factory is used by one command run, on one goroutine.
type Factory struct {
	// IOStreams are the command's streams, environment and clock.
	IOStreams *IOStreams
	// Config returns the user's configuration file merged with the
	// working directory's .mcptrail.toml (loadConfig), read on the first
	// call; a bad file is a usage error naming it, on every call.
	Config func() (*config, error)
	// Rules returns the registry that grades findings: every rule,
	// disabled and re-graded by Config's [rules] tables.
	Rules func() (*finding.Registry, error)
	// StateDir returns the state directory (capture.StateDir).
	StateDir func() (string, error)
	// Redactor builds the Redactor of a command that reads captures from
	// its redaction flags (set on fs) and the configuration; nil when
	// nothing is to be redacted.
	Redactor func(flags *redactFlags, fs *pflag.FlagSet) (redact.Redactor, error)
	// LoadSnapshot reads a whole capture into a snapshot, each record
	// redacted by red (nil: none). It is the seam of the session loader
	// (internal/session, issue 27 item 1): today loadSnapshot.
	LoadSnapshot func(r *capture.Reader, red redact.Redactor) (*store.Snapshot, error)
}

// newFactory returns the Factory of one run over ios: every dependency is
// built from ios's environment on first use and kept.
func newFactory(ios *IOStreams) *Factory {
	f := &Factory{IOStreams: ios, LoadSnapshot: loadSnapshot}
	f.Config = sync.OnceValues(func() (*config, error) { return loadConfig(ios.Getenv) })
	f.Rules = sync.OnceValues(func() (*finding.Registry, error) {
		cfg, err := f.Config()
		if err != nil {
			return nil, err
		}
		return readRules(cfg)
	})
	f.StateDir = sync.OnceValues(func() (string, error) { return capture.StateDir(ios.Getenv) })
	f.Redactor = func(flags *redactFlags, fs *pflag.FlagSet) (redact.Redactor, error) {
		return flags.readRedactor(fs, ios.Getenv)
	}
	return f
}

// SessionsDir returns the sessions directory under the state directory.
func (f *Factory) SessionsDir() (string, error) {
	state, err := f.StateDir()
	if err != nil {
		return "", err
	}
	return capture.SessionsDir(state), nil
}
