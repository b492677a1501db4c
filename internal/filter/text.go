package filter

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// lower folds s for the comparisons that ignore case (keys, enum values,
// free text): each rune's simple lower-case mapping (strings.ToLower). The
// page's script does the same (filter.js lower: İ becomes i, Σ always σ).
func lower(s string) string { return strings.ToLower(s) }

// quoteShown returns s double-quoted as errors show it, the way the page's
// script writes it (JSON.stringify): a backslash before `"` and `\`, \b \f
// \n \r \t, other C0 controls as \u00XX, every other rune as itself; an
// invalid byte, which the page can never hold, is shown as U+FFFD. The
// surfaces that print it escape what is left (the TUI's cells, the page's
// vis).
func quoteShown(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if r < 0x20 {
				b = append(b, `\u00`...)
				if r < 0x10 {
					b = append(b, '0')
				}
				b = strconv.AppendInt(b, int64(r), 16)
				continue
			}
			b = utf8.AppendRune(b, r)
		}
	}
	return string(append(b, '"'))
}
