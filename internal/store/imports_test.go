package store

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportDirection keeps the store below the rules, the analytics and
// the views (DESIGN.md): none of its files, tests included, imports them.
func TestImportDirection(t *testing.T) {
	t.Parallel()
	const mod = "github.com/mcptrail/mcptrail/internal/"
	forbidden := []string{"rules", "events", "export", "cli", "tap"}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if path == mod+bad || strings.HasPrefix(path, mod+bad+"/") {
					t.Errorf("%s imports %s: the store sits below it", name, path)
				}
			}
		}
	}
}
