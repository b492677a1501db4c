package testbin

import (
	"bufio"
	"crypto/sha256"
	"io"
	"os"
	"strings"
	"testing"
)

// WriteHugeJSON writes head, then filler text (escapes and runes beyond
// ASCII, ending in plain ASCII) and tail, size bytes in all, and a newline
// when nl is set, to a new file at path, for tests that push huge frames
// through the taps. It returns the SHA-256 of what it wrote.
func WriteHugeJSON(t testing.TB, path, head, tail string, size int, nl bool) [32]byte {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	w := bufio.NewWriter(io.MultiWriter(f, h))
	const fill = `héllo wörld \"q\" \\ \/ \u00e9 `
	w.WriteString(head)
	n := size - len(head) - len(tail)
	for ; n >= len(fill); n -= len(fill) {
		w.WriteString(fill)
	}
	w.WriteString(strings.Repeat("x", n))
	w.WriteString(tail)
	if nl {
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}
