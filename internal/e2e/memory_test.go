package e2e_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// hugeFrame is the size of the frames TestHugeFrames relays: far past
// capture.SpoolAbove, where the taps stop holding a frame in memory.
const hugeFrame = 100 << 20

// maxHugeRSS bounds mcptrail's peak RSS while it relays hugeFrame-byte
// frames: generous for a noisy machine (about 100 MB is typical), and far
// below what holding a frame a few times over costs (about 1 GB before
// frames were spooled).
const maxHugeRSS = 400 << 20

// hugeFrameHead and hugeFrameTail frame a huge JSON-RPC response with id.
func hugeFrameHead(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"result":{"content":[{"type":"text","text":"`
}

const hugeFrameTail = `"}]}}`

func fileSHA(t *testing.T, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}

// TestHugeFrames relays a 100 MB frame each way through the real binary,
// the client's ending in a newline and the server's not, and checks that
// both arrive byte for byte, that the capture holds both whole (as msg,
// so every view still sees the messages), and that mcptrail's peak RSS
// stays bounded.
func TestHugeFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("relays 200 MB")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "c2s"), filepath.Join(dir, "s2c")
	got, stdoutPath, capt := filepath.Join(dir, "received"), filepath.Join(dir, "stdout"), filepath.Join(dir, "capture.jsonl")
	want := map[capture.Dir][32]byte{
		capture.C2S: testbin.WriteHugeJSON(t, in, hugeFrameHead(1), hugeFrameTail, hugeFrame, true),
		capture.S2C: testbin.WriteHugeJSON(t, out, hugeFrameHead(2), hugeFrameTail, hugeFrame, false),
	}
	stdin, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := os.Create(stdoutPath)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	cmd := exec.Command(bins.mcptrail, "--capture", capt, "--", bins.fastserver, "-record", got, "-send", out)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rss := testbin.WatchRSS(cmd.Process.Pid)
	err = cmd.Wait()
	peak := rss.Stop()
	if err != nil {
		t.Fatalf("mcptrail: %v\nstderr: %s", err, stderr.Bytes())
	}
	if fileSHA(t, got) != want[capture.C2S] {
		t.Error("the server did not receive the client's frame byte for byte")
	}
	if fileSHA(t, stdoutPath) != want[capture.S2C] {
		t.Error("the client did not receive the server's frame byte for byte")
	}
	checkHugeCapture(t, capt, want)
	checkPeakRSS(t, peak)
}

// checkHugeCapture checks that the capture holds one msg frame per
// direction whose bytes (plus the newline it had) hash to want.
func checkHugeCapture(t *testing.T, path string, want map[capture.Dir][32]byte) {
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
	seen := map[capture.Dir]int{}
	for {
		var rec capture.Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type != capture.TypeFrame {
			continue
		}
		seen[rec.Dir]++
		b := rec.Bytes()
		if !rec.NoEOL {
			b = append(b, '\n')
		}
		if sha256.Sum256(b) != want[rec.Dir] || len(rec.Msg) == 0 || rec.Size != hugeFrame {
			t.Errorf("%s frame %d: size %d, msg %d bytes, noeol %v: not the frame relayed", rec.Dir, rec.Seq, rec.Size, len(rec.Msg), rec.NoEOL)
		}
	}
	if seen[capture.C2S] != 1 || seen[capture.S2C] != 1 {
		t.Errorf("capture holds %v frames, want one each way", seen)
	}
	if d := r.Damage(); d.Torn || d.Corrupt != 0 {
		t.Errorf("capture damage %+v", d)
	}
}

// checkPeakRSS reports mcptrail's peak RSS and fails past maxHugeRSS.
func checkPeakRSS(t *testing.T, peak int64) {
	t.Helper()
	if peak == 0 {
		t.Log("peak RSS not measured (no /proc)")
		return
	}
	t.Logf("mcptrail peak RSS %.1f MiB", float64(peak)/(1<<20))
	if peak > maxHugeRSS {
		t.Errorf("mcptrail peak RSS %d MiB relaying %d MB frames, want at most %d MiB", peak>>20, hugeFrame>>20, maxHugeRSS>>20)
	}
}
