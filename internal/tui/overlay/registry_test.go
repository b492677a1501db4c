package overlay

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestSpecs checks every registered overlay: a kind of its own, an
// enabled key with help that no other overlay takes, and a constructor
// whose overlay has the kind, draws in its size and closes on esc.
func TestSpecs(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "elicit-seed")
	th := ui.NewTheme(true)
	kinds, keys := map[Kind]bool{}, map[string]Kind{}
	for _, s := range Specs() {
		if s.Kind == "" || kinds[s.Kind] {
			t.Errorf("spec kind %q is empty or taken", s.Kind)
		}
		kinds[s.Kind] = true
		if !s.Key.Enabled() || len(s.Key.Keys()) == 0 || s.Key.Help().Desc == "" {
			t.Errorf("%s: key %v is disabled or has no help", s.Kind, s.Key.Keys())
		}
		for _, k := range s.Key.Keys() {
			if other, ok := keys[k]; ok {
				t.Errorf("%s: key %q opens %s too", s.Kind, k, other)
			}
			keys[k] = s.Kind
		}
		if s.New == nil {
			t.Errorf("%s: no constructor", s.Kind)
			continue
		}
		m := s.New(th, d, nil).SetSize(80, 24)
		if m.Kind() != s.Kind || New(th, s.Kind, d).Kind() != s.Kind {
			t.Errorf("%s: the overlay's kind is %q", s.Kind, m.Kind())
		}
		checkSize(t, m.View(), 80, 24)
		if _, cmd := m.Update(tuitest.Press("esc")); run(cmd) != (ui.BackMsg{}) {
			t.Errorf("%s: esc sends %#v, want ui.BackMsg", s.Kind, run(cmd))
		}
	}
	if New(th, "no-such-overlay", d) != nil {
		t.Error("New of an unregistered kind is not nil")
	}
}

// TestEveryKindRegistered reads the package's source for its Kind
// constants and checks that Specs registers each: an overlay file whose
// Spec is missing fails here.
func TestEveryKindRegistered(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	registered := map[Kind]bool{}
	for _, s := range Specs() {
		registered[s.Kind] = true
	}
	fset := token.NewFileSet()
	found := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range kindConsts(t, f) {
			found++
			if !registered[kind] {
				t.Errorf("%s declares the overlay %q, which registry.go's Specs does not register", name, kind)
			}
		}
	}
	if found != len(registered) {
		t.Errorf("the source declares %d Kind constants, Specs registers %d", found, len(registered))
	}
}

// kindConsts returns the values of the constants of type Kind f declares.
func kindConsts(t *testing.T, f *ast.File) []Kind {
	var out []Kind
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Kind" {
				continue
			}
			for _, val := range v.Values {
				lit, ok := val.(*ast.BasicLit)
				if !ok {
					t.Fatalf("a Kind constant's value is not a string literal: %T", val)
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, Kind(s))
			}
		}
	}
	return out
}
