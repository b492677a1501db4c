package testbin

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaFile is the SARIF 2.1.0 schema's file in the npm package
// @microsoft/jest-sarif.
const sarifSchemaFile = "sarif-2.1.0-rtm.5.json"

// SARIFSchema returns the published SARIF 2.1.0 JSON schema (draft-04)
// that the npm package @microsoft/jest-sarif ships, compiled with format
// assertions on. It reads the package's lib/schemas directory from
// $MCPTRAIL_SARIF_SCHEMA (.ci/run sets it); without it the test skips, or
// fails under CI=true (Heavy).
func SARIFSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	dir := Heavy(t, SARIFSchemaEnv, "the SARIF 2.1.0 JSON schema",
		".ci/run installs it: npm install --prefix DIR @microsoft/jest-sarif, then DIR/node_modules/@microsoft/jest-sarif/lib/schemas")
	file := filepath.Join(dir, sarifSchemaFile)
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
	validateDoc(t, s, doc, "SARIF 2.1.0")
}
