package e2e_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// checkStore loads a clean capture of n answered tools/call requests into
// the store and asserts it pairs them all and finds nothing wrong.
func checkStore(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(r, nil)
	if err != nil {
		t.Fatalf("store.Load: %v", err)
	}
	for i, fd := range snap.Findings.Slice() {
		if i == 5 {
			t.Errorf("... %d findings in all", snap.Findings.Len())
			break
		}
		t.Errorf("finding %s at seq %d: %s", fd.Rule, fd.Seq, fd.Message)
	}
	ok := 0
	for i := range snap.Calls.Len() {
		if snap.Calls.At(i).Status == store.StatusOK {
			ok++
		}
	}
	if snap.Calls.Len() != n || ok != n || snap.Counts.Frames != 2*n {
		t.Errorf("store: %d calls (%d ok), %d frames; want %d calls, all ok, %d frames", snap.Calls.Len(), ok, snap.Counts.Frames, n, 2*n)
	}
}
