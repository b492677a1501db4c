package filter

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the key table in docs/filter.md")

// The generated table sits between these lines of docs/filter.md.
const (
	tableStart = "<!-- the key table is generated from filter.Spec: go test ./internal/filter -update -->\n"
	tableEnd   = "<!-- end of the generated key table -->\n"
)

// keyTable renders Spec as the docs' Markdown table.
func keyTable() string {
	var b strings.Builder
	b.WriteString("| term | values | matches |\n|---|---|---|\n")
	for _, k := range Spec() {
		var term, values string
		switch k.Kind {
		case KindGlob:
			term, values = k.Name+":PATTERN", "any text; `*` matches any run of characters"
		case KindID:
			term, values = k.Name+":ID", "an id as typed (`7`, `\"abc\"`) or a string id without its quotes (`abc`)"
		case KindEnum:
			term, values = k.Name+":VALUE", "`"+strings.Join(k.Values, "`, `")+"` (any case)"
		case KindDuration:
			term, values = k.Name+":>DUR", "`>`, `>=`, `<` or `<=`, then a Go duration (`1.5s`, `200ms`) or milliseconds (`250`)"
		}
		b.WriteString("| `" + term + "` | " + values + " | " + k.Doc + " |\n")
	}
	b.WriteString("| free text | any text, quoted if it holds a space or a colon | the method, target or error message contains it (any case) |\n")
	return b.String()
}

// TestDocsListTheSpec keeps docs/filter.md's key table in step with Spec:
// the docs list exactly the keys and values the parser accepts.
func TestDocsListTheSpec(t *testing.T) {
	const path = "../../docs/filter.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	head, rest, ok := strings.Cut(doc, tableStart)
	_, tail, ok2 := strings.Cut(rest, tableEnd)
	if !ok || !ok2 {
		t.Fatalf("%s lacks the lines that frame the key table", path)
	}
	want := head + tableStart + keyTable() + tableEnd + tail
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("%s is stale; run go test ./internal/filter -update (-want +got):\n%s", path, diff)
	}
}

// TestDocsNameEveryKey checks that docs/tui.md's paragraph on the TUI's
// filter bar and docs/export-html.md's on the report's filter box, each
// pointing at docs/filter.md, name every key of Spec.
func TestDocsNameEveryKey(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"../../docs/tui.md", "../../docs/export-html.md"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		best, missing := "", Keys()
		for _, para := range strings.Split(string(data), "\n\n") {
			if !strings.Contains(para, "filter.md") {
				continue
			}
			var miss []string
			for _, k := range Keys() {
				if !strings.Contains(para, "`"+k+":") && !strings.Contains(para, "`!"+k+":") {
					miss = append(miss, k)
				}
			}
			if len(miss) < len(missing) {
				best, missing = para, miss
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s: no paragraph that points at filter.md names every key; the closest lacks %v:\n%s", path, missing, best)
		}
	}
}
