package http_test

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// hugeBody is the size of the bodies TestHugeBodies sends through the
// proxy: far past capture.SpoolAbove.
const hugeBody = 100 << 20

// maxHugeRSS bounds mcptrail http's peak RSS while it relays them:
// generous for a noisy machine, far below holding a body several times
// over (about 1 GB for a 200 MB POST before bodies were spooled).
const maxHugeRSS = 400 << 20

// hugeTarget hashes every request body it reads, by the request's
// X-Test-Id, and answers a POST carrying X-Test-Respond with that file.
type hugeTarget struct {
	mu     sync.Mutex
	hashes map[string][32]byte
}

func (ht *hugeTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := sha256.New()
	if _, err := io.Copy(h, r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ht.mu.Lock()
	ht.hashes[r.Header.Get("X-Test-Id")] = [32]byte(h.Sum(nil))
	ht.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if path := r.Header.Get("X-Test-Respond"); path != "" {
		http.ServeFile(w, r, path)
		return
	}
	if path := r.Header.Get("X-Test-Event"); path != "" {
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sseHead)
		io.Copy(w, f)
		io.WriteString(w, sseTail)
		return
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, r.Header.Get("X-Test-Id"))
}

// The SSE framing around the event hugeTarget sends for X-Test-Event.
const (
	sseHead = "event: message\ndata: "
	sseTail = "\n\n"
)

// TestHugeBodies posts a 100 MB JSON body with a Content-Length and
// another chunked, and has the target answer one of them with a 100 MB
// JSON body and a third request with a 100 MB SSE event, through the
// real `mcptrail http`. Every body must arrive
// byte for byte, the capture must hold each whole as msg, and the
// proxy's peak RSS must stay bounded.
func TestHugeBodies(t *testing.T) {
	if testing.Short() || raceBuild {
		t.Skip("relays 400 MB")
	}
	dir := t.TempDir()
	ht := &hugeTarget{hashes: map[string][32]byte{}}
	target := httptest.NewServer(ht)
	defer target.Close()
	tp := startTap(t, target.URL+"/mcp")
	rss := testbin.WatchRSS(tp.cmd.Process.Pid)

	want := map[string][32]byte{}
	files := map[string]string{}
	for id := 1; id <= 3; id++ {
		key := strconv.Itoa(id)
		files[key] = filepath.Join(dir, key)
		want[key] = testbin.WriteHugeJSON(t, files[key],
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{"data":"`, id),
			`"}}}`, hugeBody, false)
	}
	postHuge(t, tp.url("/mcp"), "1", files["1"], true, "", "")
	got := postHuge(t, tp.url("/mcp"), "2", files["2"], false, files["3"], "")
	if got != want["3"] {
		t.Error("the client did not receive the 100 MB response byte for byte")
	}
	got = postHuge(t, tp.url("/mcp"), "4", "", false, "", files["3"])
	if got != sseSHA(t, files["3"]) {
		t.Error("the client did not receive the 100 MB event byte for byte")
	}
	tp.stop(t)
	peak := rss.Stop()
	for _, key := range []string{"1", "2"} {
		if ht.hashes[key] != want[key] {
			t.Errorf("request %s: the target did not receive the body byte for byte", key)
		}
	}
	checkHugeRecords(t, tp.capture, want)
	if peak > 0 {
		t.Logf("mcptrail http peak RSS %.1f MiB", float64(peak)/(1<<20))
	}
	if peak > maxHugeRSS {
		t.Errorf("mcptrail http peak RSS %d MiB, want at most %d MiB", peak>>20, maxHugeRSS>>20)
	}
}

// sseSHA is the SHA-256 of the event stream hugeTarget sends for the
// file at path.
func sseSHA(t *testing.T, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	io.WriteString(h, sseHead)
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	io.WriteString(h, sseTail)
	return [32]byte(h.Sum(nil))
}

// postHuge POSTs the file at path (with its Content-Length when sized,
// else chunked; a small request when path is empty), asks the target to
// answer with the file respond (JSON) or event (one SSE event), and
// returns the SHA-256 of the response body.
func postHuge(t *testing.T, url, id, path string, sized bool, respond, event string) [32]byte {
	t.Helper()
	var body io.Reader = strings.NewReader(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"big"}}`)
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		body = struct{ io.Reader }{f} // no length: chunked
		if sized {
			body = f
		}
	}
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if sized {
		req.ContentLength = hugeBody
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("X-Test-Id", id)
	if respond != "" {
		req.Header.Set("X-Test-Respond", respond)
	}
	if event != "" {
		req.Header.Set("X-Test-Event", event)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	h := sha256.New()
	if _, err := io.Copy(h, resp.Body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("request %s: status %d", id, resp.StatusCode)
	}
	return [32]byte(h.Sum(nil))
}

// checkHugeRecords checks that every huge body is in the capture as one
// msg frame whose bytes hash as relayed.
func checkHugeRecords(t *testing.T, path string, want map[string][32]byte) {
	t.Helper()
	found := map[[32]byte]int{}
	for _, rec := range (&tap{capture: path}).records(t) {
		if rec.Type != capture.TypeFrame || rec.Size != hugeBody {
			continue
		}
		if len(rec.Msg) == 0 {
			t.Errorf("frame %d (%s, %d bytes) not recorded as msg", rec.Seq, rec.Dir, rec.Size)
		}
		found[sha256.Sum256(rec.Bytes())]++
	}
	// Two requests, the JSON response and the SSE event (which carries
	// the same message as the JSON response).
	wantCount := map[string]int{"1": 1, "2": 1, "3": 2}
	for key, h := range want {
		if found[h] != wantCount[key] {
			t.Errorf("body %s is in the capture byte for byte %d times, want %d", key, found[h], wantCount[key])
		}
	}
}
