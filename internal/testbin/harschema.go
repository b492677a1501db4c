package testbin

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// HARSchema returns the HAR 1.2 JSON schema of the npm package har-schema
// (draft-06, one file per object, each referring to the others by id),
// compiled with format assertions on. It reads the package's lib
// directory from $MCPTRAIL_HAR_SCHEMA (.ci/run sets it); without it the
// test skips, or fails under CI=true (Heavy).
func HARSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	dir := Heavy(t, HARSchemaEnv, "the HAR 1.2 JSON schema",
		".ci/run installs it: npm install --prefix DIR har-schema, then DIR/node_modules/har-schema/lib")
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
	validateDoc(t, s, doc, "HAR 1.2")
}
