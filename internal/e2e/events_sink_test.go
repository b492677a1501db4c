package e2e_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"
)

// flakyCollector answers its first failures POSTs with 500, then accepts
// and keeps the events of each batch.
type flakyCollector struct {
	mu       sync.Mutex
	failures int
	posts    int
	ids      []string
	types    map[string]int
}

func (c *flakyCollector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts++
	if r.Header.Get("X-Team") != "blue" {
		http.Error(w, "no --events-header", http.StatusBadRequest)
		return
	}
	if c.posts <= c.failures {
		http.Error(w, "collector down", http.StatusInternalServerError)
		return
	}
	var batch []struct {
		ID        string `json:"id"`
		EventType string `json:"event_type"`
	}
	if err := json.Unmarshal(b, &batch); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for _, e := range batch {
		c.ids = append(c.ids, e.ID)
		c.types[e.EventType]++
	}
}

// TestEventsHTTPSinkRecovers runs the real proxy with --events-url against
// a collector that fails its first POSTs with 500 and then recovers: every
// event is delivered once after the recovery, nothing is reported lost,
// and what the client reads is byte for byte what the server wrote without
// the proxy.
func TestEventsHTTPSinkRecovers(t *testing.T) {
	t.Parallel()
	const n = 300
	var in []byte
	for id := 1; id <= n; id++ {
		in = appendRequest(in, id)
	}
	direct := exec.Command(bins.fastserver)
	direct.Stdin = bytes.NewReader(in)
	want, err := direct.Output()
	if err != nil {
		t.Fatal(err)
	}
	c := &flakyCollector{failures: 3, types: map[string]int{}}
	srv := httptest.NewServer(c)
	defer srv.Close()
	dir := t.TempDir()
	stdout, stderr, code := runProxy(t, nil, string(in), "--capture", filepath.Join(dir, "c.jsonl"),
		"--events-url", srv.URL+"/events", "--events-header", "X-Team=blue", "--", bins.fastserver)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if stdout != string(want) {
		t.Errorf("stdout through the proxy differs from the server's own: %s", firstDiff([]byte(want), []byte(stdout)))
	}
	if strings.Contains(stderr, "analytics events") {
		t.Errorf("the proxy reported lost events:\n%s", stderr)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.posts <= c.failures {
		t.Fatalf("%d POSTs, all failed", c.posts)
	}
	seen := map[string]bool{}
	for _, id := range c.ids {
		if seen[id] {
			t.Errorf("event %s delivered twice", id)
		}
		seen[id] = true
	}
	if len(c.ids) != n || c.types["mcp:tools/call"] != n {
		t.Errorf("delivered %d events (%v) in %d POSTs, want %d mcp:tools/call", len(c.ids), c.types, c.posts, n)
	}
}
