package cli

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
)

// configFile is the name of the configuration file read from the working
// directory.
const configFile = ".mcptrail.toml"

// fileConfig is what users write in a configuration file: the user's own
// (userConfigPath) or .mcptrail.toml in the working directory. Flags
// override both.
type fileConfig struct {
	// Label names proxied sessions (as --label).
	Label string `toml:"label"`
	// Capture is the capture path of proxied sessions (as --capture);
	// only the user's own file may set it.
	Capture string `toml:"capture"`
	// Redact holds the redaction settings, for the proxy and for every
	// command that reads a capture.
	Redact redactConfig `toml:"redact"`
	// Rules disables and re-grades rules, for every command that shows
	// findings.
	Rules rules.Config `toml:"rules"`
	// Replay holds the replay command's settings.
	Replay replayConfig `toml:"replay"`
}

// replayConfig is the [replay] table.
type replayConfig struct {
	// Ignore lists JSON Pointers of result members replay does not
	// compare (as its --ignore).
	Ignore []string `toml:"ignore"`
}

// redactConfig is the [redact] table.
type redactConfig struct {
	Keys    []string `toml:"keys"`
	Secrets bool     `toml:"secrets"`
	Paths   []string `toml:"paths"`
	Values  []string `toml:"values"`
	Answers bool     `toml:"answers"`
}

// config is the configuration a command runs with: the user's own file
// merged with the working directory's .mcptrail.toml, which may come with
// a cloned repository and so may neither say where files are written nor
// take away the user's redaction.
type config struct {
	// Label names proxied sessions: the working directory's, else the
	// user's; "" derives it from the server's command.
	Label string
	// Capture is the capture path template of the user's file, with a
	// leading ~ made the home directory; "" writes to the sessions
	// directory.
	Capture string
	// Redact is both files' [redact] tables together: every key, path and
	// value either names, and a setting either turns on.
	Redact redactConfig
	// ReplayIgnore is both files' [replay] ignore lists, the user's
	// first: the working directory's file adds to the user's, never
	// takes one away.
	ReplayIgnore []string
	// rules are the [rules] tables, the user's first, each with its file.
	rules []fileRules
	// user is the user's configuration file; "" when the environment
	// names no home.
	user string
	// localCapture is the capture the working directory's file tried to
	// set, which the taps refuse; "" when it set none.
	localCapture string
}

// fileRules is a [rules] table and the file it came from.
type fileRules struct {
	file  string
	rules rules.Config
}

// loadConfig reads the user's configuration file and .mcptrail.toml from
// the working directory; a missing file is an empty configuration. An
// unknown key, a syntax error or a bad value is a usage error that names
// the file (and the line where it can).
func loadConfig(getenv func(string) string) (*config, error) {
	cfg := &config{user: userConfigPath(getenv, runtime.GOOS)}
	var user fileConfig
	if cfg.user != "" {
		u, err := readConfigFile(cfg.user)
		if err != nil {
			return nil, err
		}
		if cfg.Capture, err = userCapture(cfg.user, u.Capture, getenv); err != nil {
			return nil, err
		}
		user = *u
	}
	local, err := readConfigFile(configFile)
	if err != nil {
		return nil, err
	}
	cfg.Label = cmp.Or(local.Label, user.Label)
	cfg.localCapture = local.Capture
	cfg.Redact = user.Redact.with(&local.Redact)
	cfg.rules = []fileRules{{cfg.user, user.Rules}, {configFile, local.Rules}}
	cfg.ReplayIgnore = append(append([]string(nil), user.Replay.Ignore...), local.Replay.Ignore...)
	return cfg, nil
}

// with returns r with what o adds: its keys, paths and values after r's,
// and each setting on when either turns it on.
func (r redactConfig) with(o *redactConfig) redactConfig {
	r.Keys = append(r.Keys[:len(r.Keys):len(r.Keys)], o.Keys...)
	r.Paths = append(r.Paths[:len(r.Paths):len(r.Paths)], o.Paths...)
	r.Values = append(r.Values[:len(r.Values):len(r.Values)], o.Values...)
	r.Secrets = r.Secrets || o.Secrets
	r.Answers = r.Answers || o.Answers
	return r
}

// readConfigFile reads and checks one configuration file; a missing file
// is an empty configuration.
func readConfigFile(name string) (*fileConfig, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &fileConfig{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, reason(err))
	}
	cfg, err := parseConfig(data, name)
	if err != nil {
		return nil, err
	}
	if _, err := cfg.Redact.options(fileSources(name)); err != nil {
		return nil, err
	}
	for _, p := range cfg.Replay.Ignore {
		if !isPointer(p) {
			return nil, usagef("%s: [replay] ignore %q: want a JSON Pointer such as /content/0/text", name, p)
		}
	}
	return cfg, nil
}

// userConfigPath returns the user's own configuration file:
// $XDG_CONFIG_HOME/mcptrail/config.toml, else %APPDATA%\mcptrail\config.toml
// on Windows and ~/.config/mcptrail/config.toml elsewhere; "" when none of
// them is set to an absolute path (a relative one is ignored, as the XDG
// base directory specification says, since it would be read from wherever
// mcptrail was started).
func userConfigPath(getenv func(string) string, goos string) string {
	dir := absEnv(getenv, "XDG_CONFIG_HOME")
	switch {
	case dir != "":
	case goos == "windows":
		dir = absEnv(getenv, "APPDATA")
	default:
		if home := absEnv(getenv, "HOME"); home != "" {
			dir = filepath.Join(home, ".config")
		}
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "mcptrail", "config.toml")
}

// absEnv is the environment variable name when it holds an absolute path,
// else "".
func absEnv(getenv func(string) string, name string) string {
	if v := getenv(name); filepath.IsAbs(v) {
		return v
	}
	return ""
}

// parseConfig decodes the contents of the configuration file name.
func parseConfig(data []byte, name string) (*fileConfig, error) {
	var cfg fileConfig
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	err := dec.Decode(&cfg)
	var missing *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case err == nil:
		return &cfg, nil
	case errors.As(err, &missing) && len(missing.Errors) > 0:
		var msgs []string
		for i := range missing.Errors {
			e := &missing.Errors[i]
			row, _ := e.Position()
			msgs = append(msgs, fmt.Sprintf("%s:%d: unknown key %q", name, row, strings.Join(e.Key(), ".")))
		}
		return nil, usagef("%s", strings.Join(msgs, "\n"))
	case errors.As(err, &de):
		row, col := de.Position()
		return nil, usagef("%s:%d:%d: %s", name, row, col, decodeMessage(de))
	}
	return nil, usagef("%s: %v", name, err)
}

// decodeMessage is de's message in the file's terms: a value of the wrong
// type names its key and the type it takes, not the Go struct field and
// type go-toml decoded it into ("cannot decode TOML integer into struct
// field cli.fileConfig.Label of type string").
func decodeMessage(de *toml.DecodeError) string {
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	got, rest, ok1 := strings.Cut(strings.TrimPrefix(msg, "cannot decode TOML "), " into struct field ")
	_, goType, ok2 := strings.Cut(rest, " of type ")
	if !ok1 || !ok2 || !strings.HasPrefix(msg, "cannot decode TOML ") {
		return msg
	}
	want := map[string]string{"string": "a string", "[]string": "an array of strings", "bool": "true or false"}[goType]
	if want == "" {
		want = "a " + goType
	}
	key := strings.Join(de.Key(), ".")
	if key == "" {
		key = "the value"
	}
	return fmt.Sprintf("%s must be %s, not a TOML %s", key, want, got)
}
