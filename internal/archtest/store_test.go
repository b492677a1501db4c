package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// storeFiles parses the store's non-test Go files.
func storeFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "internal", "store", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = f
	}
	if len(out) == 0 {
		t.Fatal("no store files found")
	}
	return out
}

// TestStoreHoldsNoEventPayloads checks the store builds nothing for
// analytics events: no events file, no Options or Snapshot field for them
// (the events package builds every payload from the change feed).
func TestStoreHoldsNoEventPayloads(t *testing.T) {
	t.Parallel()
	for name, f := range storeFiles(t) {
		if strings.HasPrefix(name, "events") {
			t.Errorf("internal/store/%s: the store holds an events file", name)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && (ts.Name.Name == "EventOptions" || ts.Name.Name == "EventLog") {
				t.Errorf("internal/store/%s declares %s", name, ts.Name.Name)
			}
			return true
		})
	}
}

// TestStoreHoldsNoHTTPHeaderRules checks the HTTP header rules and the
// x-mcp-header schema walk live in internal/rules, not in the store: no
// store file raises an HTTP rule's finding, except http-request-without-response:
// a request answered with a success status and no JSON-RPC response is decided
// while pairing the HTTP exchange with its call, which is correlation.
func TestStoreHoldsNoHTTPHeaderRules(t *testing.T) {
	t.Parallel()
	for name, f := range storeFiles(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "finding" && strings.HasPrefix(sel.Sel.Name, "HTTP") && sel.Sel.Name != "HTTPRequestNoBody" {
				t.Errorf("internal/store/%s raises finding.%s", name, sel.Sel.Name)
				return false
			}
			return true
		})
	}
}
