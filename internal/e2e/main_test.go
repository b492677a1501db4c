// Package e2e_test drives the real mcptrail binary end to end: byte
// transparency in both directions, a 100,000-request pipelined load, kill -9
// in the middle of a burst, exit status and signal passthrough, capture
// placement, and benchmarks against a direct connection and the
// `cat | SERVER | cat` floor.
//
// TestMain builds mcptrail and the scripted server (./fastserver) once.
package e2e_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail   string
	fastserver string
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcptrail-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bins = binaries{
		mcptrail:   filepath.Join(dir, "mcptrail"),
		fastserver: filepath.Join(dir, "fastserver"),
	}
	for _, b := range []struct{ out, pkg string }{
		{bins.mcptrail, "github.com/mcptrail/mcptrail/cmd/mcptrail"},
		{bins.fastserver, "github.com/mcptrail/mcptrail/internal/e2e/fastserver"},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n", b.pkg, err)
			return 1
		}
	}
	return m.Run()
}

// readCapture decodes every record of the capture at path.
func readCapture(t testing.TB, path string) (*capture.Record, []capture.Record, capture.Damage) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatalf("opening capture %s: %v", path, err)
	}
	var recs []capture.Record
	for {
		var rec capture.Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading capture %s: %v", path, err)
		}
		recs = append(recs, rec)
	}
	return r.Header(), recs, r.Damage()
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
