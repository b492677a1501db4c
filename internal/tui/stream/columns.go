package stream

// column is one column of the stream's table.
type column int

// The columns, in screen order.
const (
	colTime column = iota
	colDir
	colID
	colMethod
	colTarget
	colStatus
	colDuration
	colElicit
	colFindings
	colPreview // what came back: an error's message
	numColumns
)

// widths returns each column's least width. The target (the tool name,
// the resource) is what a person reads: it keeps at least minTarget cells
// at 80 columns, where the direction and the id, low in information, are
// dropped first and the method, "tools/call" on most rows, gets no more
// than it needs.
func widths() layout {
	return layout{
		colTime: 8, colDir: 3, colID: 6, colMethod: 11, colTarget: minTarget,
		colStatus: 14, colDuration: 7, colElicit: 9, colFindings: 3,
	}
}

// previewFrom is the least screen width with a preview column, which
// then keeps minPreview cells; below it the inspector shows the answer.
const (
	previewFrom = 120
	minPreview  = 20
)

// minTarget is the target column's least width on a screen of 80 columns
// or more (preamble 4 of issue 28: names keep at least 20 cells).
const minTarget = 20

// Widths the method and elicit columns grow to before the target takes
// the rest.
const (
	wantMethod = 20 // completion/complete, resources/templates/list
	wantElicit = 12 // accept×2 decline
)

// dropOrder is the order columns go as the screen narrows, the least
// useful first; method and target always stay.
func dropOrder() []column {
	return []column{colPreview, colDir, colID, colTime, colFindings, colElicit, colDuration, colStatus}
}

// titles returns the column headers.
func titles() [numColumns]string {
	return [numColumns]string{"time", "dir", "id", "method", "target", "status", "dur", "elicit", "!", "answer"}
}

// layout is the width of each column for a screen width (0: dropped).
// Rows start with one cell for the expand marker; columns are separated by
// one space.
type layout [numColumns]int

// layoutFor fits the columns in w cells.
func layoutFor(w int) layout {
	l := widths()
	if w >= previewFrom {
		l[colPreview] = minPreview
	}
	used := func() int {
		n := 1
		for _, x := range l {
			if x > 0 {
				n += x + 1
			}
		}
		return n
	}
	for _, c := range dropOrder() {
		if used() <= w {
			break
		}
		l[c] = 0
	}
	extra := w - used()
	if l[colPreview] > 0 && l[colDir] > 0 && extra < wantElicit-l[colElicit]+wantMethod-l[colMethod] {
		// With an answer column, a method cut to "server/disco…" costs
		// more than the direction, which the nesting mark (└) and the
		// inspector still show.
		l[colDir] = 0
		extra = w - used()
	}
	if extra < 0 {
		// Narrower than the columns that always stay: the method gives way
		// first, then the target.
		cut := min(-extra, l[colMethod]-4)
		l[colMethod] -= cut
		l[colTarget] = max(l[colTarget]-(-extra-cut), 1)
		return l
	}
	if l[colElicit] > 0 {
		g := min(extra, wantElicit-l[colElicit])
		l[colElicit] += g
		extra -= g
	}
	share := extra / 2
	if l[colPreview] > 0 {
		// Wide enough for an answer column: the method whole first.
		share = extra
	}
	g := min(share, wantMethod-l[colMethod])
	l[colMethod] += g
	extra -= g
	if l[colPreview] > 0 {
		// The name and what came back share the rest.
		l[colPreview] += extra / 2
		extra -= extra / 2
	}
	l[colTarget] += extra
	return l
}
