package mcpserve

import (
	stdjson "encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// size is what the budget bounds: the structured content and the text.
func size(t *testing.T, res *mcp.CallToolResult) (int, map[string]any) {
	t.Helper()
	raw := res.StructuredContent.(stdjson.RawMessage)
	var m map[string]any
	if err := stdjson.Unmarshal(raw, &m); err != nil {
		t.Fatalf("structured content is not JSON: %v\n%s", err, raw)
	}
	return len(raw) + len(res.Content[0].(*mcp.TextContent).Text), m
}

// TestAnswerBudget pages through lists of hostile, huge and plain items
// under several budgets: every answer fits, every item comes exactly
// once across the pages (a too-big one as a stub that says its size),
// and a page that leaves items out names the cursor.
func TestAnswerBudget(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat(testbin.EvilUTF8, 1<<14)
	items := []string{"plain", testbin.Evil, huge, "after-huge", strings.Repeat("x", 3000)}
	for range 200 {
		items = append(items, "item "+testbin.EvilUTF8)
	}
	for _, budget := range []int{MinMaxAnswer, DefaultMaxAnswer, 64 << 10} {
		t.Run(strconv.Itoa(budget), func(t *testing.T) {
			var seen []int
			for start := 0; start < len(items); {
				p := &page{
					head: func(limit int) ([]byte, error) { return marshal(map[string]string{"label": huge}, limit) },
					text: func(limit int) string { return "head " + show(huge, limit) + "\n" },
					list: &list{name: "items", n: len(items),
						item: func(i, limit int) ([]byte, error) {
							return marshal(map[string]any{"i": i, "name": items[i]}, limit)
						},
						line: func(i, limit int) string { return fmt.Sprintf("%d %s", i, show(items[i], limit)) },
					},
					start: start,
				}
				res, err := answer(p, budget)
				if err != nil {
					t.Fatal(err)
				}
				n, m := size(t, res)
				if n > budget {
					t.Fatalf("page at %d: %d bytes, over %d", start, n, budget)
				}
				got := m["items"].([]any)
				for k, it := range got {
					o := it.(map[string]any)
					if i, ok := o["i"].(float64); ok {
						seen = append(seen, int(i))
					} else if o["omitted_bytes"] != nil {
						seen = append(seen, start+k)
					}
				}
				next, ok := m["next_cursor"].(string)
				if !ok {
					break
				}
				if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "cursor \""+next+"\"") {
					t.Fatalf("page at %d leaves items out but its text names no cursor %s:\n%s", start, next, text)
				}
				if start, err = strconv.Atoi(next); err != nil {
					t.Fatal(err)
				}
			}
			want := make([]int, len(items))
			for i := range want {
				want[i] = i
			}
			if diff := cmp.Diff(want, seen); diff != "" {
				t.Errorf("items across the pages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCut: a cut string encodes in about limit bytes of JSON whatever
// it holds, stays valid UTF-8 and says how long it was.
func TestCut(t *testing.T) {
	t.Parallel()
	for _, s := range []string{strings.Repeat("\x1b", 1000), strings.Repeat("é", 1000), "ok\xff" + strings.Repeat("a", 1000)} {
		got := cut(s, 64)
		b, err := stdjson.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 64+40 || !utf8.ValidString(got) || !strings.Contains(got, fmt.Sprintf("[cut: %d bytes in all]", len(strings.ToValidUTF8(s, "\uFFFD")))) {
			t.Errorf("cut(%.10q, 64) = %q (%d bytes of JSON)", s, got, len(b))
		}
	}
	if got := cut("short", 64); got != "short" {
		t.Errorf("cut(short) = %q", got)
	}
}

// TestCursor: a cursor is an offset a previous answer gave; anything
// else is an error that says what to pass.
func TestCursor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		n    int
		want int
		err  bool
	}{{"", 5, 0, false}, {"3", 5, 3, false}, {"5", 5, 5, false}, {"6", 5, 0, true}, {"-1", 5, 0, true}, {"x", 5, 0, true}} {
		got, err := cursor(c.in, c.n)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("cursor(%q, %d) = %d, %v; want %d, error %v", c.in, c.n, got, err, c.want, c.err)
		}
	}
}
