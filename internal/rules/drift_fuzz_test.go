package rules

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/google/go-cmp/cmp"
)

// schemaSeeds are inputSchemas the fuzz targets start from.
func schemaSeeds() []string {
	return []string{
		`{"type":"object","properties":{"q":{"type":"string","description":"d"},"limit":{"type":"integer"}},"required":["q"],"additionalProperties":false}`,
		`{"type":"object","properties":{"env":{"type":["string","null"],"enum":["a","b",null]}},"required":["env","x"]}`,
		`{"type":"object","properties":{"cfg":{"type":"object","properties":{"mode":{"type":"string"}},"required":["mode"],"additionalProperties":{}}}}`,
		`{}`, `[]`, `"x"`, `null`, `{"type":7,"required":"q","properties":[]}`, `{"a":1,"a":2}`,
	}
}

// FuzzCompareSchemas: any two byte strings compare without panicking; a
// schema equals itself; every change is a schema kind with two different
// texts.
func FuzzCompareSchemas(f *testing.F) {
	seeds := schemaSeeds()
	for _, a := range seeds {
		for _, b := range seeds {
			f.Add([]byte(a), []byte(b))
		}
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		// The same schema in canonical form (members sorted, numbers
		// respelled) is the same schema: the walk must find nothing.
		if v := jsontext.Value(slices.Clone(a)); v.Canonicalize() == nil {
			if got := CompareSchemas(a, v); got != nil {
				t.Fatalf("CompareSchemas(a, canonical a) = %v", got)
			}
		}
		for _, c := range CompareSchemas(a, b) {
			if !slices.Contains([]string{ToolSchemaLoosened, ToolSchemaTightened, ToolDescriptionChanged}, c.Kind) {
				t.Fatalf("change of kind %q", c.Kind)
			}
			if c.Old == c.New && c.Kind != ToolSchemaLoosened && c.Kind != ToolSchemaTightened {
				t.Fatalf("change with equal texts: %+v", c)
			}
			_ = c.Message()
		}
		if bytes.Equal(a, b) && CompareSchemas(a, b) != nil {
			t.Fatal("equal schemas differ")
		}
	})
}

// FuzzReadToolBaseline: any file reads without panicking; one that reads
// writes back to a file that reads as the same catalog (no drift).
func FuzzReadToolBaseline(f *testing.F) {
	f.Add([]byte(`{"format":"mcptrail-tools-baseline","version":1,"session":"s","tools":[{"name":"t","hash":"h","definition":{"name":"t","inputSchema":` + schemaSeeds()[0] + `}}]}`))
	f.Add([]byte(`{"format":"mcptrail-tools-baseline","version":1,"tools":[]}`))
	f.Add([]byte(`{"format":"mcptrail-tools-baseline","version":2}`))
	f.Add([]byte(`{"format":1}`))
	f.Add([]byte(`{"type":"session","format":1}` + "\n" + `{"type":"end"}`))
	f.Add([]byte(`{"format":"mcptrail-tools-baseline","version":1,"tools":[{"name":"a","definition":{"name":"b"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadToolBaseline(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := b.Write(&buf); err != nil {
			t.Fatalf("writing a baseline read: %v", err)
		}
		again, err := ReadToolBaseline(&buf)
		if err != nil {
			t.Fatalf("reading a baseline written: %v\n%s", err, buf.Bytes())
		}
		if diff := cmp.Diff(names(b), names(again)); diff != "" {
			t.Fatalf("tools changed in the round trip (-read +again):\n%s", diff)
		}
		if changes := CompareTools(b.Definitions(), again.Definitions()); changes != nil {
			t.Fatalf("a baseline written back drifts from itself: %v", changes)
		}
	})
}

func names(b *ToolBaseline) []string {
	var out []string
	for _, t := range b.Tools {
		out = append(out, t.Name)
	}
	return out
}
