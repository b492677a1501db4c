package textexport

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// demoSnapshot is the snapshot of testdata/demo.jsonl (a capture of
// `mcptrail demo`), with a catalog whose names are long and wide added.
func demoSnapshot(t *testing.T) *store.Snapshot {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Load(r, &store.Options{Rules: rules.Default(), Checks: rules.Checks()})
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("0f", 32)
	def := func(key string) store.Definition {
		return store.Definition{Definition: mcp.Definition{Key: key}, Hash: hash}
	}
	s.Catalog = &store.Catalog{
		Lists: []store.CatalogList{{Method: "tools/list", Kind: store.KindTool, Seq: 3, Pages: 1, Complete: true,
			Definitions: []store.Definition{def("create_account"), def("東京の天気予報を取得するツール"), def("a_tool_whose_name_goes_on_and_on_and_on_forever")}}},
		Changes: []store.CatalogChange{
			{Seq: 3, Kind: store.KindTool, Key: "create_account", Change: store.ChangeAdded, Notified: 2},
			{Seq: 9, Kind: store.KindTool, Key: "create_account", Change: store.ChangeChanged, Notified: 8},
			{Seq: 9, Kind: store.KindTool, Key: "東京の天気予報を取得するツール", Change: store.ChangeChanged, Notified: 8},
		},
	}
	return s
}

// TestTableGoldens writes the export's tables (calls, elicitations,
// catalog, summary) and findings of the demo's snapshot 80 and 120 columns wide, with
// colour on and off, and checks every table line fits.
func TestTableGoldens(t *testing.T) {
	t.Parallel()
	snap := demoSnapshot(t)
	for _, width := range []int{80, 120} {
		for _, color := range []bool{false, true} {
			name := "tables-" + strconv.Itoa(width)
			if color {
				name += "-color"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var buf bytes.Buffer
				w := bufio.NewWriter(&buf)
				l := Layout{Width: width, Color: color}
				writeCalls(w, snap, l)
				writeLedger(w, snap, l)
				writeCatalog(w, snap, l)
				writeSummary(w, snap, l)
				writeFindings(w, snap, l)
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				got := buf.String()
				for _, line := range strings.Split(got, "\n") {
					plain := stripSGR(line)
					// The summary's counts are a sentence, not a table.
					if n := termtable.Width(plain); n > width && !strings.Contains(line, " records, ") {
						t.Errorf("line is %d wide, more than %d: %q", n, width, line)
					}
					if !color && plain != line {
						t.Errorf("an SGR sequence with colour off: %q", line)
					}
				}
				golden.Check(t, filepath.Join("testdata", name+".golden"), got)
			})
		}
	}
}

// stripSGR removes the SGR sequences termtable writes.
func stripSGR(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		j := strings.IndexByte(s[max(i, 0):], 'm')
		if i < 0 || j < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
}
