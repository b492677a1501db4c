package testbin

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// npmSchemaDir returns the directory of a published JSON schema that the
// npm package pkg ships under sub: $env when set (.ci/run sets it), else
// the package installed with npm into a temporary directory. Without
// either it skips t, unless CI is set, when it fails. what names the
// schema in messages.
func npmSchemaDir(t testing.TB, what, env, pkg, sub string) string {
	t.Helper()
	if dir := os.Getenv(env); dir != "" {
		return dir
	}
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		skip("no %s schema: %s is unset and npm is not installed (.ci/run installs %s)", what, env, pkg)
		return ""
	}
	prefix := t.TempDir()
	out, err := exec.Command(npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, pkg).CombinedOutput()
	if err != nil {
		skip("no %s schema: %s is unset and `npm install %s` failed: %v\n%s", what, env, pkg, err, strings.TrimSpace(string(out)))
		return ""
	}
	return filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg), sub)
}

// validateDoc fails t unless doc is JSON that s accepts; what names the
// format in messages ("HAR 1.2").
func validateDoc(t testing.TB, s *jsonschema.Schema, doc []byte, what string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, doc)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("not valid %s: %v", what, err)
	}
}
