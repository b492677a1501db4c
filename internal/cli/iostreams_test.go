package cli

import (
	"os"
	"testing"
)

// TestIsTerminal: neither the null device nor a pipe is a terminal, though
// the null device is a character device.
func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, f := range map[string]*os.File{os.DevNull: null, "a pipe": w} {
		if isTerminal(f) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
