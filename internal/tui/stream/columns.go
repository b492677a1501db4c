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
	numColumns
)

// widths returns the fixed widths; method and target share what is left,
// each keeping at least this.
func widths() layout {
	return layout{
		colTime: 8, colDir: 3, colID: 6, colMethod: 12, colTarget: 8,
		colStatus: 14, colDuration: 7, colElicit: 12, colFindings: 3,
	}
}

// dropOrder is the order columns go as the screen narrows, the least
// useful first; method always stays.
func dropOrder() []column {
	return []column{colDir, colTime, colFindings, colID, colElicit, colDuration, colTarget, colStatus}
}

// titles returns the column headers.
func titles() [numColumns]string {
	return [numColumns]string{"time", "dir", "id", "method", "target", "status", "dur", "elicit", "!"}
}

// layout is the width of each column for a screen width (0: dropped).
// Rows start with one cell for the expand marker; columns are separated by
// one space.
type layout [numColumns]int

// layoutFor fits the columns in w cells.
func layoutFor(w int) layout {
	l := widths()
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
	if extra > 0 {
		if l[colTarget] > 0 {
			t := extra * 3 / 5
			l[colTarget] += t
			extra -= t
		}
		l[colMethod] += extra
	} else if extra < 0 {
		l[colMethod] = max(l[colMethod]+extra, 1)
	}
	return l
}
