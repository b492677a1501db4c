package hub

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSparkline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		counts []int
		w      int
		want   string
	}{
		{nil, 16, ""},
		{[]int{0, 0, 0}, 16, ""},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8}, 16, "▁▂▃▄▅▆▇█"},
		{[]int{0, 1, 100}, 16, " ▁█"},
		{[]int{3, 3}, 16, "██"},
		{[]int{1, 1, 2, 2, 0, 0, 4, 4}, 4, "▂▄ █"}, // pairs summed
		{[]int{1, 2, 3}, 2, "██"},                  // 1+2 and 3
		{[]int{5}, 0, ""},
	}
	for _, tt := range tests {
		if got := sparkline(tt.counts, tt.w); got != tt.want {
			t.Errorf("sparkline(%v, %d) = %q, want %q", tt.counts, tt.w, got, tt.want)
		}
	}
}

func TestCount(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 99_999: "99999", 100_000: "100k", 999_999: "999k", 1_250_000: "1.2M", 250_000_000: "250M"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestLayout checks which columns a width keeps, and that they fit it.
func TestLayout(t *testing.T) {
	t.Parallel()
	all := []colID{colPrefix, colLabel, colTransport, colClient, colServer, colCalls, colErrors, colElicit, colFindings, colLast, colActivity}
	tests := []struct {
		w    int
		want []colID
	}{
		{200, all},
		{120, all},
		{100, []colID{colPrefix, colLabel, colTransport, colClient, colServer, colCalls, colErrors, colElicit, colFindings, colLast}},
		{80, []colID{colPrefix, colLabel, colTransport, colCalls, colErrors, colElicit, colFindings, colLast}},
		{60, []colID{colPrefix, colLabel, colCalls, colElicit, colLast}},
		{40, []colID{colPrefix, colLabel, colElicit}},
		{10, []colID{colPrefix, colLabel}},
		{0, []colID{colPrefix, colLabel}},
	}
	for _, tt := range tests {
		cols := layout(tt.w)
		var got []colID
		total := len(cols) - 1
		for _, c := range cols {
			got = append(got, c.id)
			total += c.width
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("layout(%d) columns (-want +got):\n%s", tt.w, diff)
		}
		if tt.w >= 24 && total != tt.w {
			t.Errorf("layout(%d) is %d cells wide", tt.w, total)
		}
	}
}

// TestLabelKeepsWidth checks preamble 4 of issue 28 in code: from 80
// columns on, the session label keeps at least 20 cells.
func TestLabelKeepsWidth(t *testing.T) {
	t.Parallel()
	for w := 80; w <= 240; w++ {
		for _, c := range layout(w) {
			if c.id == colLabel && c.width < 20 {
				t.Errorf("layout(%d): label %d cells, want ≥ 20", w, c.width)
			}
		}
	}
}
