package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
)

// configFile is the name of the configuration file read from the working
// directory.
const configFile = ".mcptrail.toml"

// fileConfig is what users write in .mcptrail.toml. Flags override it.
type fileConfig struct {
	// Label names proxied sessions (as --label).
	Label string `toml:"label"`
	// Capture is the capture path of proxied sessions (as --capture).
	Capture string `toml:"capture"`
	// Redact holds the redaction settings, for the proxy and for every
	// command that reads a capture.
	Redact redactConfig `toml:"redact"`
	// Rules disables and re-grades rules, for every command that shows
	// findings.
	Rules rules.Config `toml:"rules"`
}

// redactConfig is the [redact] table.
type redactConfig struct {
	Keys    []string `toml:"keys"`
	Secrets bool     `toml:"secrets"`
	Paths   []string `toml:"paths"`
	Values  []string `toml:"values"`
	Answers bool     `toml:"answers"`
}

// loadConfig reads .mcptrail.toml from the working directory; a missing
// file is an empty configuration. An unknown key or a syntax error is a
// usage error that names the line.
func loadConfig() (*fileConfig, error) {
	data, err := os.ReadFile(configFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &fileConfig{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", configFile, reason(err))
	}
	return parseConfig(data)
}

// parseConfig decodes a configuration file's contents.
func parseConfig(data []byte) (*fileConfig, error) {
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
			msgs = append(msgs, fmt.Sprintf("%s:%d: unknown key %q", configFile, row, strings.Join(e.Key(), ".")))
		}
		return nil, usagef("%s", strings.Join(msgs, "\n"))
	case errors.As(err, &de):
		row, col := de.Position()
		return nil, usagef("%s:%d:%d: %s", configFile, row, col, decodeMessage(de))
	}
	return nil, usagef("%s: %v", configFile, err)
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
