package overlay

// cursor is a list's selection and scroll position: sel is the selected
// row, top the first row shown. The zero value selects the first row.
type cursor struct {
	sel, top int
}

// clamp keeps c inside n rows shown h at a time: the selection visible,
// no empty space below the last row when the rows fill the view.
func (c cursor) clamp(n, h int) cursor {
	if n <= 0 {
		return cursor{}
	}
	c.sel = min(max(c.sel, 0), n-1)
	if h <= 0 {
		c.top = c.sel
		return c
	}
	if c.sel < c.top {
		c.top = c.sel
	}
	if c.sel >= c.top+h {
		c.top = c.sel - h + 1
	}
	c.top = max(0, min(c.top, n-h))
	return c
}

// move moves the selection by delta rows.
func (c cursor) move(delta, n, h int) cursor {
	c.sel += delta
	return c.clamp(n, h)
}

// wheel scrolls the view by delta rows, dragging the selection along only
// when it would leave the view.
func (c cursor) wheel(delta, n, h int) cursor {
	c.top = max(0, min(c.top+delta, n-max(h, 1)))
	if h > 0 {
		c.sel = min(max(c.sel, c.top), c.top+h-1)
	}
	return c.clamp(n, h)
}
