package inspector

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestScratch(t *testing.T) {
	d := fixture(t, "elicit-seed")
	for i := 0; i < d.Snap.Calls.Len(); i++ {
		c := d.Snap.Calls.At(i)
		fmt.Println(i, c.Method, c.Target, c.ID.Raw(), c.Status, c.Operation, c.Round, c.Parent, c.RequestSeq, c.ResponseSeq)
	}
	m := open(t, d, 1, 80, 24)
	fmt.Println(ansi.Strip(m.View()))
	m, _ = press(m, "tab")
	fmt.Println(ansi.Strip(m.View()))
	m, _ = press(m, "[", "z")
	fmt.Println(ansi.Strip(m.View()))
}
