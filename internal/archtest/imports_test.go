package archtest

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// root is the module's root directory, from this package's.
const root = "../.."

// helper reports whether any package may import pkg: it knows nothing of
// MCP and correlates nothing.
func helper(pkg string) bool {
	return pkg == "internal/spool" || pkg == "internal/units" || pkg == "internal/termtext" || pkg == "internal/termtable" || pkg == "internal/jsonraw"
}

// layers returns, for each package of the module (its path inside the
// module), the module packages it may import besides the helpers; "*" allows
// every package but the command, the CLI and test support. It follows
// DESIGN.md's data flow: tap → capture → store → rules and the views.
// A new package must be placed here.
func layers() map[string][]string {
	store := []string{"internal/capture", "internal/finding", "internal/mcp", "internal/wire"}
	below := func(extra ...string) []string { return append(slices.Clone(store), extra...) }
	view := below("internal/store", "internal/oauth", "internal/rules")
	return map[string][]string{
		// Foundations: no MCP knowledge, no correlation.
		"internal/wire":       nil,
		"internal/finding":    nil,
		"internal/spool":      nil,
		"internal/termtext":   nil,
		"internal/units":      nil, // how a duration or a time reads to a person; a helper
		"internal/termtable":  nil, // tables that fit a terminal; it uses termtext, a helper
		"internal/jsonraw":    nil,
		"internal/transcript": nil,
		"internal/mcp":        {"internal/wire"},
		"internal/capture":    {"internal/wire"},
		"internal/redact":     {"internal/capture", "internal/mcp", "internal/wire"},
		// May this request reach us (Host, Origin, Content-Type): the one
		// policy of every listener (the http tap, mock --http, /metrics).
		"internal/admit": nil,
		// The filter language of the TUI's filter bar and the HTML report's
		// filter box: pure, knows nothing of the store; each view fills its
		// Items.
		"internal/filter": nil,
		// Taps move bytes and emit records; they correlate nothing. The feed
		// fans the records out to live consumers.
		"internal/tap/feed":      {"internal/capture"},
		"internal/tap/capq":      nil,                                                                               // the capture queue both taps share; it knows nothing of records
		"internal/tap/record":    {"internal/capture", "internal/redact", "internal/tap/feed", "internal/tap/capq"}, // both taps' capture goroutine
		"internal/tap/stdio":     {"internal/capture", "internal/redact", "internal/mcp", "internal/wire", "internal/tap/feed", "internal/tap/capq", "internal/tap/record"},
		"internal/tap/httpproxy": {"internal/capture", "internal/redact", "internal/mcp", "internal/wire", "internal/tap/feed", "internal/tap/capq", "internal/tap/record", "internal/admit"},
		"internal/tap/mitm":      nil, // the local CA for --intercept: certificates only
		"internal/buildinfo":     nil, // what a release build stamps with -ldflags -X
		// The only correlator: no rule, no view.
		"internal/store": store,
		// The OAuth flow read out of a snapshot's exchanges and calls, for
		// the oauth rules and every view.
		"internal/oauth": below("internal/store"),
		// Rules read the store; they render nothing.
		"internal/rules": below("internal/store", "internal/oauth"),
		// The session loader: a capture opened as the user configured it
		// (redaction, the rules, the auth view), for every view below.
		"internal/session": below("internal/store", "internal/oauth", "internal/rules", "internal/redact"),
		// Views over snapshots and the change feed, each on its own.
		"internal/events":          below("internal/store", "internal/session"),
		"internal/events/httpsink": below("internal/store", "internal/events"),
		"internal/events/otlp":     below("internal/store", "internal/events", "internal/events/httpsink"), // its redirect policy
		"internal/events/mcpcat":   below("internal/store", "internal/events", "internal/events/httpsink"), // its retry policy
		"internal/events/prom":     below("internal/store", "internal/events"),
		"internal/export/json":     view,
		"internal/export/text":     view,
		"internal/export/har":      view,
		"internal/export/html":     append(slices.Clone(view), "internal/filter"),                     // the filter language, below every view
		"internal/check":           append(slices.Clone(view), "internal/session", "internal/redact"), // redaction on read, for mcptrail mcp
		"internal/index":           append(slices.Clone(view), "internal/session"),
		// The TUI: ui is what its screens share; each screen reads Data
		// (snapshots) and never the capture; source follows the files;
		// the app (internal/tui) composes them.
		"internal/tui/ui":        below("internal/store", "internal/termtext"),
		"internal/tui/stream":    below("internal/store", "internal/rules", "internal/termtext", "internal/tui/ui", "internal/filter"),
		"internal/tui/inspector": below("internal/store", "internal/termtext", "internal/jsonraw", "internal/tui/ui"),
		"internal/tui/overlay":   below("internal/store", "internal/rules", "internal/termtext", "internal/export/text", "internal/tui/ui"),
		"internal/tui/hub":       below("internal/store", "internal/termtext", "internal/tui/ui", "internal/filter"),
		"internal/tui/source":    below("internal/store", "internal/rules", "internal/redact", "internal/termtext", "internal/tui/ui", "internal/session"),
		"internal/tui": below("internal/store", "internal/rules", "internal/redact", "internal/termtext",
			"internal/export/json", "internal/export/text", "internal/tui/ui", "internal/filter",
			"internal/tui/stream", "internal/tui/inspector", "internal/tui/overlay", "internal/tui/hub", "internal/tui/source"),
		"internal/mock": below("internal/store", "internal/transcript", "internal/admit"),
		// The session comparison that diff and replay print.
		"internal/diff": view,
		// The tool catalog that tools prints (rules.ToolList over a snapshot).
		"internal/toolcat": view,
		// The captures served over MCP (mcptrail mcp): a view that composes
		// the views whose JSON it mirrors (the index for sessions, check for
		// findings, the JSON export's ledger rows) and the filter language,
		// so its answers are the CLI's (diff, toolcat, the text export for
		// the report resource), and the listeners' request policy for
		// --http; it imports no tap, replay or mock (read-only).
		"internal/mcpserve": append(slices.Clone(view), "internal/redact", "internal/session", "internal/index", "internal/check",
			"internal/export/json", "internal/export/text", "internal/filter", "internal/diff", "internal/toolcat", "internal/admit"),

		// Client configuration files (wrap/unwrap): text splices, no MCP.
		"internal/clientconfig": nil,
		// Replay drives a real server through the stdio tap and compares the
		// sessions (internal/diff).
		"internal/replay": below("internal/store", "internal/tap/stdio", "internal/tap/httpproxy", "internal/diff"),
		// The CLI wires everything; only the command imports it.
		"internal/cli": {"*"},
		"cmd/mcptrail": {"internal/cli"},
		// The bench command (go run ./scripts/bench) runs the built binaries
		// as a client would; it imports none of the module's packages.
		"scripts/bench": nil,
	}
}

// testSupport reports whether pkg only serves tests (it may import any
// package but the CLI; no other package may import it).
func testSupport(pkg string) bool {
	return pkg == "internal/testbin" || pkg == "internal/testbin/wine" || pkg == "internal/golden" || pkg == "internal/corpus" || pkg == "internal/archtest" || pkg == "internal/tui/tuitest" ||
		pkg == "internal/e2e" || strings.HasPrefix(pkg, "internal/e2e/")
}

// violations lists every import of graph (package → module packages its
// non-test files import) that layers does not allow.
func violations(graph map[string][]string, allowed map[string][]string) []string {
	var out []string
	for _, pkg := range slices.Sorted(maps.Keys(graph)) {
		for _, imp := range graph[pkg] {
			if msg := check(pkg, imp, allowed); msg != "" {
				out = append(out, msg)
			}
		}
		if _, ok := allowed[pkg]; !ok && !testSupport(pkg) {
			out = append(out, pkg+" is not placed in the layer table (archtest.layers, ARCHITECTURE.md)")
		}
	}
	return out
}

// check says why pkg may not import imp, or returns "".
func check(pkg, imp string, allowed map[string][]string) string {
	switch {
	case imp == "internal/cli" && pkg != "cmd/mcptrail":
		return pkg + " imports internal/cli: nothing but the command may"
	case testSupport(imp) && !testSupport(pkg):
		return pkg + " imports " + imp + ", which only serves tests"
	case testSupport(pkg):
		return ""
	case helper(imp):
		return ""
	}
	may := allowed[pkg]
	if slices.Contains(may, imp) || (slices.Contains(may, "*") && !strings.HasPrefix(imp, "cmd/")) {
		return ""
	}
	return fmt.Sprintf("%s imports %s: an arrow pointing up (it may import %v)", pkg, imp, may)
}

// moduleGraph parses the imports of every non-test Go file of the module
// under dir (whatever its build constraints) and returns, per package
// directory relative to dir, the module packages it imports.
func moduleGraph(t *testing.T, dir string) map[string][]string {
	t.Helper()
	mod := modulePath(t, dir)
	graph := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != dir && err == nil {
				return filepath.SkipDir // another module (tools/otelcol)
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		for _, is := range f.Imports {
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			if imp, ok := strings.CutPrefix(p, mod+"/"); ok && !slices.Contains(graph[pkg], imp) {
				graph[pkg] = append(graph[pkg], imp)
			}
		}
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// modulePath reads the module path from dir's go.mod.
func modulePath(t *testing.T, dir string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatal("go.mod names no module")
	return ""
}

// TestImportDirection checks the module's real import graph against the
// layer table.
func TestImportDirection(t *testing.T) {
	t.Parallel()
	graph := moduleGraph(t, root)
	for _, pkg := range []string{"internal/store", "internal/events", "internal/wire", "cmd/mcptrail"} {
		if _, ok := graph[pkg]; !ok {
			t.Fatalf("the graph has no %s: is root (%s) the module's root?", pkg, root)
		}
	}
	for _, v := range violations(graph, layers()) {
		t.Error(v)
	}
}

// TestViolations checks the checker: each arrow pointing up is reported.
func TestViolations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		graph map[string][]string
		want  []string
	}{
		{"down only", map[string][]string{
			"internal/store": {"internal/capture", "internal/wire", "internal/spool"}, "internal/cli": {"internal/store"},
			"cmd/mcptrail": {"internal/cli"}, "internal/e2e/fastserver": nil,
		}, nil},
		{"store imports events", map[string][]string{"internal/store": {"internal/events"}},
			[]string{"internal/store imports internal/events: an arrow pointing up (it may import [internal/capture internal/finding internal/mcp internal/wire])"}},
		{"wire knows mcp", map[string][]string{"internal/wire": {"internal/mcp"}},
			[]string{"internal/wire imports internal/mcp: an arrow pointing up (it may import [])"}},
		{"capture imports store", map[string][]string{"internal/capture": {"internal/store"}},
			[]string{"internal/capture imports internal/store: an arrow pointing up (it may import [internal/wire])"}},
		{"view imports view", map[string][]string{"internal/export/json": {"internal/events"}},
			[]string{"internal/export/json imports internal/events: an arrow pointing up (it may import [internal/capture internal/finding internal/mcp internal/wire internal/store internal/oauth internal/rules])"}},
		{"cli imported", map[string][]string{"internal/tui": {"internal/cli"}},
			[]string{"internal/tui imports internal/cli: nothing but the command may"}},
		{"test support imported", map[string][]string{"internal/cli": {"internal/testbin"}},
			[]string{"internal/cli imports internal/testbin, which only serves tests"}},
		{"unplaced package", map[string][]string{"internal/newthing": nil},
			[]string{"internal/newthing is not placed in the layer table (archtest.layers, ARCHITECTURE.md)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, violations(tc.graph, layers())); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}
