package e2e_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestEventsLivePipelinedMatchesExport pipelines 100,000 calls through the
// real proxy with --events-file and checks that the live events file is,
// byte for byte, what `export -T events` derives from the capture
// afterwards: one event per call, none lost on the way.
func TestEventsLivePipelinedMatchesExport(t *testing.T) {
	if testing.Short() {
		t.Skip("100k-call pipelined run skipped in -short mode")
	}
	const n = 100_000
	dir := t.TempDir()
	capt, live := filepath.Join(dir, "load.jsonl"), filepath.Join(dir, "events.jsonl")
	// The pipeline may finish the backlog after the server exits: give it
	// the time it needs, so that what is checked is what it derives.
	cmd := exec.Command(bins.mcptrail, "--capture", capt, "--events-file", live, "--events-flush-timeout", "5m",
		"--", bins.fastserver)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	writeErr := make(chan error, 1)
	go func() { writeErr <- pipeline(stdin, n) }()
	answers := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		answers++
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading answers: %v", err)
	}
	if err := <-writeErr; err != nil {
		t.Fatalf("writing requests: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcptrail: %v; stderr:\n%s", err, stderr.String())
	}
	if answers != n {
		t.Fatalf("client got %d answers, want %d", answers, n)
	}
	out := filepath.Join(dir, "export.jsonl")
	exp := exec.Command(bins.mcptrail, "export", "-T", "events", "-o", out, capt)
	if msg, err := exp.CombinedOutput(); err != nil {
		t.Fatalf("export -T events: %v\n%s", err, msg)
	}
	// Compared as streams: the test process stays small, because on Linux
	// a child's peak RSS (rusage) includes its parent's, which the memory
	// tests of this package measure.
	lines, diff := compareLines(t, out, live)
	if lines != n {
		t.Errorf("the export holds %d events, want %d", lines, n)
	}
	// The live pipeline reads the record feed, catching up from the capture
	// when it falls behind, and waits for the file sink: nothing may drop.
	if m := regexp.MustCompile(`[1-9][0-9]* (capture records dropped|dropped \(queue full\))`).FindString(stderr.String()); m != "" {
		t.Errorf("the events pipeline reported %s", m)
	}
	if diff != "" {
		t.Errorf("the live events file differs from the export: %s; mcptrail said: %q", diff, stderr.String())
	}
}

// compareLines reads two files line by line and returns the number of
// lines of want and, when got differs, where.
func compareLines(t *testing.T, want, got string) (int, string) {
	t.Helper()
	open := func(path string) *bufio.Reader {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return bufio.NewReaderSize(f, 1<<16)
	}
	w, g := open(want), open(got)
	n, diff := 0, ""
	for {
		wl, werr := w.ReadBytes('\n')
		gl, gerr := g.ReadBytes('\n')
		if werr != nil && !errors.Is(werr, io.EOF) || gerr != nil && !errors.Is(gerr, io.EOF) {
			t.Fatalf("reading %s, %s: %v, %v", want, got, werr, gerr)
		}
		if len(wl) > 0 && wl[len(wl)-1] == '\n' {
			n++
		}
		if diff == "" && !bytes.Equal(wl, gl) {
			diff = fmt.Sprintf("line %d: export %.200q, live %.200q", n, wl, gl)
		}
		if len(wl) == 0 && len(gl) == 0 {
			return n, diff
		}
	}
}
