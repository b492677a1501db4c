// Package e2e_test drives the real mcptrail binary end to end: byte
// transparency in both directions, a 100,000-request pipelined load, kill -9
// in the middle of a burst, exit status and signal passthrough, capture
// placement, and benchmarks against a direct connection and the
// `cat | SERVER | cat` floor.
//
// TestMain builds mcptrail and the scripted server (./fastserver) once.
package e2e_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail   string
	fastserver string
	stubborn   string // a server that is hard to stop (lifecycle_test.go)
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail},
		testbin.Target{Out: &bins.fastserver, Pkg: testbin.Module + "/internal/e2e/fastserver"},
		testbin.Target{Out: &bins.stubborn, Pkg: testbin.Module + "/internal/e2e/stubborn"},
	))
}

// readCapture decodes every record of the capture at path.
func readCapture(t testing.TB, path string) (*capture.Record, []capture.Record, capture.Damage) {
	t.Helper()
	h, recs, dmg, err := capture.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return h, recs, dmg
}

// framesByDir rebuilds each direction's byte stream from the capture's
// frame records, and checks the seqs run 1, 2, 3... in file order.
func framesByDir(t testing.TB, recs []capture.Record) map[capture.Dir][]byte {
	t.Helper()
	out := map[capture.Dir][]byte{}
	var seq uint64
	for _, r := range recs {
		if r.Type != capture.TypeFrame {
			continue
		}
		seq++
		if r.Seq != seq {
			t.Fatalf("frame %d in file order has seq %d", seq, r.Seq)
		}
		b := append(out[r.Dir], r.Bytes()...)
		if !r.NoEOL {
			b = append(b, '\n')
		}
		out[r.Dir] = b
	}
	return out
}

// firstDiff describes where a and b first differ, for readable failures
// on multi-megabyte inputs.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n && len(a) == len(b) {
		return "equal"
	}
	lo := max(i-20, 0)
	return fmt.Sprintf("lengths %d and %d, first difference at byte %d: %q vs %q", len(a), len(b), i,
		a[lo:min(i+20, len(a))], b[lo:min(i+20, len(b))])
}
