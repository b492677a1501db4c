package e2e_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// appendRequest appends a tools/call request line with id.
func appendRequest(b []byte, id int) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	return append(b, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`+"\n"...)
}

// pipeline writes n requests to w without waiting for answers, then
// closes w.
func pipeline(w io.WriteCloser, n int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	for id := 1; id <= n; id++ {
		line = appendRequest(line[:0], id)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return w.Close()
}

func TestLoadPipelined(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	const n = 100_000
	capt := filepath.Join(t.TempDir(), "load.jsonl")
	cmd := exec.Command(bins.mcptrail, "--capture", capt, "--", bins.fastserver)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	start := time.Now()
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
	if err := <-writeErr; err != nil {
		t.Fatalf("writing requests: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcptrail: %v", err)
	}
	elapsed := time.Since(start)
	if answers != n {
		t.Fatalf("client got %d answers, want %d", answers, n)
	}
	t.Logf("%d pipelined calls through mcptrail in %v (%.0f calls/s)", n, elapsed, n/elapsed.Seconds())

	_, recs, dmg := readCapture(t, capt)
	if dmg.Torn || dmg.Corrupt != 0 {
		t.Errorf("capture damage = %+v", dmg)
	}
	checkPairs(t, recs, n)
	checkStore(t, capt, n)
}

// checkPairs asserts the capture holds n requests and n responses, seqs
// run 1..2n in file order, and each response's seq is above its request's.
func checkPairs(t *testing.T, recs []capture.Record, n int) {
	t.Helper()
	reqSeq := make(map[string]uint64, n)
	var frames, responses int
	var prev uint64
	for i := range recs {
		r := &recs[i]
		if r.Type != capture.TypeFrame {
			continue
		}
		frames++
		if r.Seq != prev+1 {
			t.Fatalf("frame %d has seq %d after %d", frames, r.Seq, prev)
		}
		prev = r.Seq
		f := wire.Decode(r.Bytes())
		id := string(f.ID.Raw())
		switch {
		case r.Dir == capture.C2S && f.Kind == wire.KindRequest:
			reqSeq[id] = r.Seq
		case r.Dir == capture.S2C && f.Kind == wire.KindResponse:
			responses++
			rs, ok := reqSeq[id]
			if !ok {
				t.Fatalf("response id %s (seq %d) precedes its request", id, r.Seq)
			}
			if r.Seq <= rs {
				t.Fatalf("response id %s has seq %d, request %d", id, r.Seq, rs)
			}
		default:
			t.Fatalf("unexpected frame %+v", r)
		}
	}
	if frames != 2*n || len(reqSeq) != n || responses != n {
		t.Errorf("capture has %d frames (%d requests, %d responses), want %d", frames, len(reqSeq), responses, 2*n)
	}
}

func TestKill9MidBurst(t *testing.T) {
	t.Parallel()
	capt := filepath.Join(t.TempDir(), "killed.jsonl")
	cmd := exec.Command(bins.mcptrail, "--capture", capt, "--", bins.fastserver)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = pipeline(stdin, 1_000_000) }()
	// Kill once the burst is well under way.
	br := bufio.NewReader(stdout)
	for range 20_000 {
		if _, err := br.ReadSlice('\n'); err != nil {
			t.Fatalf("reading answers: %v", err)
		}
	}
	// The recorder may hold a burst back for a few milliseconds so that
	// forwarding gets the CPU first: kill once records are on disk, so the
	// test exercises a torn file rather than an empty one.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) { // polling an external process's file
		if st, err := os.Stat(capt); err == nil && st.Size() > 1<<20 {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, br) }()
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("mcptrail ended with %v, want killed", err)
	}

	raw, err := os.ReadFile(capt)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, dmg := readCapture(t, capt)
	if dmg.Corrupt != 0 {
		t.Errorf("%d corrupt lines at %v", dmg.Corrupt, dmg.CorruptLines)
	}
	// A tail without a newline must be reported as torn, with its length.
	tail := len(raw) - (bytes.LastIndexByte(raw, '\n') + 1)
	if (tail > 0) != dmg.Torn || int64(tail) != dmg.TornBytes {
		t.Errorf("file ends with %d torn bytes; Damage = %+v", tail, dmg)
	}
	var frames int
	var prev uint64
	for _, r := range recs {
		if r.Type == capture.TypeEnd {
			t.Error("a killed proxy wrote an end record")
		}
		if r.Type != capture.TypeFrame {
			continue
		}
		frames++
		if r.Seq != prev+1 || wire.Decode(r.Bytes()).Kind == wire.KindInvalid {
			t.Fatalf("frame %d: seq %d after %d, %.80q", frames, r.Seq, prev, r.Bytes())
		}
		prev = r.Seq
	}
	// What was still queued or buffered in the killed process is gone;
	// everything before it must be there.
	if frames == 0 {
		t.Error("capture has no frames")
	}
	t.Logf("capture after kill -9: %d frames, torn tail %d bytes", frames, tail)
}
