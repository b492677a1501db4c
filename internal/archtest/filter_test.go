package archtest

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exportImportsTUI lists, for every package under internal/export, each
// import of a package under internal/tui: a report needs the TUI's
// language, never the TUI (the filter language lives in internal/filter,
// below both).
func exportImportsTUI(graph map[string][]string) []string {
	var out []string
	for _, pkg := range slices.Sorted(maps.Keys(graph)) {
		if pkg != "internal/export" && !strings.HasPrefix(pkg, "internal/export/") {
			continue
		}
		for _, imp := range graph[pkg] {
			if imp == "internal/tui" || strings.HasPrefix(imp, "internal/tui/") {
				out = append(out, pkg+" imports "+imp+": an export may not import the TUI")
			}
		}
	}
	return out
}

// TestExportImportsNoTUI checks the real graph: no internal/export/**
// package imports an internal/tui/** package, whatever the layer table
// allows.
func TestExportImportsNoTUI(t *testing.T) {
	t.Parallel()
	graph := moduleGraph(t, root)
	if _, ok := graph["internal/export/html"]; !ok {
		t.Fatalf("the graph has no internal/export/html: is root (%s) the module's root?", root)
	}
	for _, v := range exportImportsTUI(graph) {
		t.Error(v)
	}
}

// TestExportImportsTUIChecker checks the checker on made-up graphs.
func TestExportImportsTUIChecker(t *testing.T) {
	t.Parallel()
	graph := map[string][]string{
		"internal/export/html": {"internal/store", "internal/filter", "internal/tui/filter"},
		"internal/export/json": {"internal/tui"},
		"internal/exporter":    {"internal/tui/ui"}, // not under internal/export
		"internal/tui/stream":  {"internal/tui/ui"},
	}
	want := []string{
		"internal/export/html imports internal/tui/filter: an export may not import the TUI",
		"internal/export/json imports internal/tui: an export may not import the TUI",
	}
	if diff := cmp.Diff(want, exportImportsTUI(graph)); diff != "" {
		t.Errorf("exportImportsTUI (-want +got):\n%s", diff)
	}
}
