package hub

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// count is n in at most 5 cells: exact below 100,000, then 123k, 1.2M.
func count(n int) string {
	switch {
	case n < 100_000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	case n < 100_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
	return strconv.Itoa(n/1_000_000) + "M"
}

// countStyled is count(n), drawn in some when n > 0 and in none when 0.
func countStyled(n int, st func(lipgloss.Style, string) string, some, none lipgloss.Style) string {
	if n > 0 {
		return st(some, count(n))
	}
	return st(none, count(n))
}

// elicitations is "3" or "3 (1 pending)", the pending part highlighted.
func elicitations(n, pending int, st func(lipgloss.Style, string) string, th *ui.Theme) string {
	if n == 0 && pending == 0 {
		return st(th.Dim, "0")
	}
	if pending == 0 {
		return count(n)
	}
	return count(n) + " " + st(th.Pending, "("+count(pending)+" pending)")
}

// sparkLevels are the bars of a sparkline, lowest first.
const sparkLevels = "▁▂▃▄▅▆▇█"

// sparkline draws counts (oldest first) as bars scaled to the largest,
// in at most w cells (neighbouring counts summed when they do not fit);
// a zero count is a blank, and so is an empty or all-zero slice.
func sparkline(counts []int, w int) string {
	if w <= 0 {
		return ""
	}
	if len(counts) > w {
		g := (len(counts) + w - 1) / w
		merged := make([]int, 0, w)
		for i := 0; i < len(counts); i += g {
			sum := 0
			for _, c := range counts[i:min(i+g, len(counts))] {
				sum += c
			}
			merged = append(merged, sum)
		}
		counts = merged
	}
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	if top == 0 {
		return ""
	}
	levels := []rune(sparkLevels)
	var b strings.Builder
	for _, c := range counts {
		if c <= 0 {
			b.WriteByte(' ')
			continue
		}
		// Ceiling, so that any activity shows at least the lowest bar.
		b.WriteRune(levels[(c*len(levels)-1)/top])
	}
	return b.String()
}
