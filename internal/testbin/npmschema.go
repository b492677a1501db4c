package testbin

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

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
