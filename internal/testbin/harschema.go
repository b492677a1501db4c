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

// HARSchema returns the HAR 1.2 JSON schema of the npm package har-schema
// (draft-06, one file per object, each referring to the others by id),
// compiled with format assertions on. It reads the package's lib
// directory from $MCPTRAIL_HAR_SCHEMA (.ci/run sets it), or installs the
// package with npm into a temporary directory; without either it skips t,
// unless CI is set, when it fails.
func HARSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	dir := harSchemaDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no HAR schema files in %s (%v)", dir, err)
	}
	const base = "https://har-schema.invalid/"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft6)
	c.AssertFormat()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := c.AddResource(base+filepath.Base(f), doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	s, err := c.Compile(base + "har.json")
	if err != nil {
		t.Fatalf("compiling the HAR schema: %v", err)
	}
	return s
}

// ValidateHAR fails t unless doc is a HAR document that s accepts.
func ValidateHAR(t testing.TB, s *jsonschema.Schema, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("HAR is not JSON: %v\n%s", err, doc)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("HAR is not valid HAR 1.2: %v", err)
	}
}

// harSchemaDir is the har-schema package's lib directory.
func harSchemaDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("MCPTRAIL_HAR_SCHEMA"); dir != "" {
		return dir
	}
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		skip("no HAR schema: MCPTRAIL_HAR_SCHEMA is unset and npm is not installed (.ci/run installs har-schema)")
		return ""
	}
	prefix := t.TempDir()
	out, err := exec.Command(npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, "har-schema").CombinedOutput()
	if err != nil {
		skip("no HAR schema: MCPTRAIL_HAR_SCHEMA is unset and `npm install har-schema` failed: %v\n%s", err, strings.TrimSpace(string(out)))
		return ""
	}
	return filepath.Join(prefix, "node_modules", "har-schema", "lib")
}
