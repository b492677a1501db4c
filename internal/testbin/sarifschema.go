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

// sarifSchemaFile is the SARIF 2.1.0 schema's file in the npm package
// @microsoft/jest-sarif.
const sarifSchemaFile = "sarif-2.1.0-rtm.5.json"

// SARIFSchema returns the published SARIF 2.1.0 JSON schema (draft-04)
// that the npm package @microsoft/jest-sarif ships, compiled with format
// assertions on. It reads the package's lib/schemas directory from
// $MCPTRAIL_SARIF_SCHEMA (.ci/run sets it), or installs the package with
// npm into a temporary directory; without either it skips t, unless CI is
// set, when it fails.
func SARIFSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	file := filepath.Join(sarifSchemaDir(t), sarifSchemaFile)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("reading the SARIF schema: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	const url = "https://sarif-schema.invalid/" + sarifSchemaFile
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	return s
}

// ValidateSARIF fails t unless doc is a SARIF log that s accepts.
func ValidateSARIF(t testing.TB, s *jsonschema.Schema, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, doc)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("SARIF is not valid SARIF 2.1.0: %v", err)
	}
}

// sarifSchemaDir is the @microsoft/jest-sarif package's lib/schemas
// directory.
func sarifSchemaDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("MCPTRAIL_SARIF_SCHEMA"); dir != "" {
		return dir
	}
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		skip("no SARIF schema: MCPTRAIL_SARIF_SCHEMA is unset and npm is not installed (.ci/run installs @microsoft/jest-sarif)")
		return ""
	}
	prefix := t.TempDir()
	out, err := exec.Command(npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, "@microsoft/jest-sarif").CombinedOutput()
	if err != nil {
		skip("no SARIF schema: MCPTRAIL_SARIF_SCHEMA is unset and `npm install @microsoft/jest-sarif` failed: %v\n%s", err, strings.TrimSpace(string(out)))
		return ""
	}
	return filepath.Join(prefix, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas")
}
