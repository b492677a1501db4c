package stream

import "testing"

// TestLayoutNamesKeepWidth checks preamble 4 of issue 28 in code: from 80
// columns on, the target (the tool name) keeps at least minTarget cells
// and the method no fewer than "tools/call" needs, the low-information
// direction and id going first; every layout fills the screen exactly.
func TestLayoutNamesKeepWidth(t *testing.T) {
	t.Parallel()
	for w := 80; w <= 240; w++ {
		l := layoutFor(w)
		if l[colTarget] < minTarget {
			t.Errorf("layoutFor(%d): target %d cells, want ≥ %d", w, l[colTarget], minTarget)
		}
		if l[colMethod] < len("tools/call") {
			t.Errorf("layoutFor(%d): method %d cells, cuts tools/call", w, l[colMethod])
		}
		used := 1
		for _, x := range l {
			if x > 0 {
				used += x + 1
			}
		}
		if used != w {
			t.Errorf("layoutFor(%d) is %d cells wide", w, used)
		}
	}
	if l := layoutFor(80); l[colStatus] == 0 || l[colDuration] == 0 || l[colFindings] == 0 || l[colTime] == 0 {
		t.Errorf("layoutFor(80) dropped a column it has room for: %v", l)
	}
	for w := 1; w < 80; w++ {
		if l := layoutFor(w); l[colTarget] < 1 || l[colMethod] < 1 {
			t.Errorf("layoutFor(%d) lost the method or target: %v", w, l)
		}
	}
}
