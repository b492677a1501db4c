package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/rules"
)

const storePath = "github.com/mcptrail/mcptrail/internal/store"

// sourceFiles parses every non-test Go file under internal/ and cmd/, by
// path relative to the module root.
func sourceFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	out := map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, dir := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = f
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// importName returns the name f refers to the package path by, "" when
// f does not import it.
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == path {
			if im.Name != nil {
				return im.Name.Name
			}
			return path[strings.LastIndex(path, "/")+1:]
		}
	}
	return ""
}

// TestOnlyTheLoaderMakesStores checks that every command and view opens
// sessions through internal/session: no non-test file outside the store
// and the loader calls store.New or store.Load. (Tests of the packages
// below the loader, and view tests building fixture snapshots, still make
// stores directly.)
func TestOnlyTheLoaderMakesStores(t *testing.T) {
	t.Parallel()
	files := sourceFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d files parsed", len(files))
	}
	for path, f := range files {
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == "internal/store" || dir == "internal/session" {
			continue
		}
		name := importName(f, storePath)
		if name == "" || name == "_" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && (sel.Sel.Name == "New" || sel.Sel.Name == "Load") {
				t.Errorf("%s: store.%s outside internal/session (open the session with session.Load or session.NewStore)", path, sel.Sel.Name)
			}
			return true
		})
	}
}

// TestStoreFindingsTakeOnePath checks item 7 of DESIGN.md's rules: every
// finding the store makes goes through findings.go (raise, appendGraded,
// grade), which knows the registry and the capture lines. No other store
// file appends to the findings list or grades a finding itself.
func TestStoreFindingsTakeOnePath(t *testing.T) {
	t.Parallel()
	for name, f := range storeFiles(t) {
		if name == "findings.go" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "findings" {
						t.Errorf("internal/store/%s assigns to the findings list: raise the finding (findings.go)", name)
					}
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Grade" {
					t.Errorf("internal/store/%s grades a finding itself: use raise or graded (findings.go)", name)
				}
			}
			return true
		})
	}
}

// storeRuleIDs are the rule ids the store itself raises (the correlation
// findings, in whatever category the registry files them); every other
// rule is raised by internal/rules reading frames and snapshots. Docs may
// cite this list: TestStoreRaisesTheseRules keeps it true.
var storeRuleIDs = []string{
	"batch-frame", "cancel-unknown-request", "capture-corrupt", "capture-gap", "capture-torn",
	"duplicate-response", "http-request-without-response", "id-reused-in-flight", "invalid-frame",
	"late-result", "mrtr-not-retryable", "mrtr-retry-mismatch", "mrtr-retry-same-id",
	"mrtr-state-changed", "mrtr-state-invented", "mrtr-state-missing", "non-conforming-frame",
	"null-id", "relay-error", "response-without-request", "server-exit-abnormal",
	"server-ignored-stdin-eof", "server-start-failed", "task-cancel-notification", "task-error-code",
	"task-input-key-reused", "task-input-not-outstanding", "task-invalid", "task-never-terminal",
	"task-poll-too-fast", "task-undeclared", "task-unknown", "task-unsupported-method",
	"task-update-after-terminal", "unanswered-request", "unpaired-retry",
}

// TestStoreRaisesTheseRules checks that the rule ids the store's files name
// are storeRuleIDs, and that each is a rule of the registry.
func TestStoreRaisesTheseRules(t *testing.T) {
	t.Parallel()
	ids := findingIDs(t)
	var got []string
	for _, f := range storeFiles(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "finding" {
					if id, ok := ids[sel.Sel.Name]; ok && !slices.Contains(got, id) {
						got = append(got, id)
					}
				}
			}
			return true
		})
	}
	slices.Sort(got)
	if diff := cmp.Diff(storeRuleIDs, got); diff != "" {
		t.Errorf("the rule ids the store raises (-storeRuleIDs +store files):\n%s", diff)
	}
	reg := rules.Default()
	for _, id := range storeRuleIDs {
		if _, ok := reg.Rule(id); !ok {
			t.Errorf("the store raises %s, which is not in rules.Default", id)
		}
	}
}

// findingIDs returns internal/finding's rule id constants (untyped string
// constants) by name.
func findingIDs(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "internal", "finding", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if vs.Type != nil || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[vs.Names[i].Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d rule ids found in internal/finding", len(out))
	}
	return out
}
