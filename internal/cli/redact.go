package cli

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
)

// redactFlags are the redaction flags every command that writes or reads a
// capture accepts.
type redactFlags struct {
	keys    []string
	secrets bool
	paths   []string
	values  []string
	answers bool
}

// add registers the flags on fs; what says where they apply.
func (f *redactFlags) add(fs *pflag.FlagSet, what string) {
	fs.StringSliceVar(&f.keys, "redact-key", nil, "replace the values of members named `K` or ending in _K (any case, any depth) "+what+"; repeatable, comma-separated")
	fs.BoolVar(&f.secrets, "redact-secrets", false, "replace the values of common secret keys (token, api_key, password, authorization, cookie, ..., and names ending in them or in _key) "+what)
	fs.StringArrayVar(&f.paths, "redact-path", nil, "replace the values the JSONPath `EXPR` selects "+what+"; repeatable")
	fs.StringArrayVar(&f.values, "redact-value", nil, "replace matches of the RE2 `REGEX` inside strings, stderr and text frames "+what+"; repeatable")
	fs.BoolVar(&f.answers, "redact-answers", false, "replace every value users submitted in elicitation answers "+what)
}

// redactor builds the Redactor the flags and the configuration ask for:
// a flag that was set replaces the configuration's setting. It returns nil
// when nothing is to be redacted.
func (f *redactFlags) redactor(fs *pflag.FlagSet, cfg *redactConfig) (redact.Redactor, error) {
	t := *cfg
	src := fileSources("the configuration") // checked as each file was read
	if fs.Changed("redact-key") {
		if len(f.keys) == 0 {
			return nil, usagef("invalid --redact-key: an empty key")
		}
		t.Keys, src.keys = f.keys, "--redact-key"
	}
	if fs.Changed("redact-secrets") {
		t.Secrets = f.secrets
	}
	if fs.Changed("redact-answers") {
		t.Answers = f.answers
	}
	if fs.Changed("redact-path") {
		t.Paths, src.paths = f.paths, "--redact-path"
	}
	if fs.Changed("redact-value") {
		t.Values, src.values = f.values, "--redact-value"
	}
	opts, err := t.options(src)
	if err != nil || opts.Empty() {
		return nil, err
	}
	return redact.New(&opts)
}

// redactSources name where the keys, paths and values of a [redact] table
// came from, for messages.
type redactSources struct{ keys, paths, values string }

// fileSources names the keys of the [redact] table in file.
func fileSources(file string) redactSources {
	return redactSources{keys: "redact.keys in " + file, paths: "redact.paths in " + file, values: "redact.values in " + file}
}

// options checks t and returns the redaction options it asks for; a bad
// key, regex or JSONPath is a usage error naming where it came from.
func (t *redactConfig) options(src redactSources) (redact.Options, error) {
	opts := redact.Options{Keys: t.Keys, Secrets: t.Secrets, Paths: t.Paths, Answers: t.Answers}
	for _, k := range t.Keys {
		if strings.TrimSpace(k) == "" {
			return opts, usagef("invalid %s %q: an empty key", src.keys, k)
		}
	}
	for _, v := range t.Values {
		re, err := regexp.Compile(v)
		if err != nil {
			return opts, usagef("invalid %s %q: %v", src.values, v, err)
		}
		opts.Values = append(opts.Values, re)
	}
	for _, p := range t.Paths {
		if _, err := redact.New(&redact.Options{Paths: []string{p}}); err != nil {
			return opts, usagef("invalid %s %q: %v", src.paths, p, errors.Unwrap(err))
		}
	}
	return opts, nil
}

// readRedactor loads the configuration and builds the Redactor of a
// command that reads captures.
func (f *redactFlags) readRedactor(fs *pflag.FlagSet, getenv func(string) string) (redact.Redactor, error) {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return nil, err
	}
	return f.redactor(fs, &cfg.Redact)
}

// redactedHeader returns a copy of the capture's header, redacted by red
// when it is not nil (session.Header).
func redactedHeader(r *capture.Reader, red redact.Redactor) *capture.Record {
	return session.Header(r, red)
}

// loadSnapshot reads the session r is at through the session loader, each
// record redacted by red (nil: none), without the frame rules: its callers
// show no findings. The file is only read.
func loadSnapshot(r *capture.Reader, red redact.Redactor) (*store.Snapshot, error) {
	s, err := session.Load(r, &session.Options{NoChecks: true, Redactor: red})
	if err != nil {
		return nil, fmt.Errorf("loading capture: %w", err)
	}
	return s.Snapshot, nil
}

// shownTarget is the target URL as mcptrail prints it: its password
// hidden, and under redaction (red not nil) the secret query parameters
// and text forms of the key rules scrubbed, as in the session record.
func shownTarget(u *url.URL, red redact.Redactor) string {
	s := u.Redacted()
	if red != nil {
		s, _ = red.Text(s)
	}
	return s
}
