package diff

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestJSONDoc keeps docs/diff.md in step with the report: every JSON
// member of the report's types is named in its example.
func TestJSONDoc(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/diff.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Slice || typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.PkgPath() != reflect.TypeFor[Report]().PkgPath() {
			return
		}
		seen[typ] = true
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "" && name != "-" && !strings.Contains(string(doc), `"`+name+`"`) {
				t.Errorf("docs/diff.md does not show the member %q of %s", name, typ.Name())
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[Report]())
	walk(reflect.TypeFor[Delta]())
}
