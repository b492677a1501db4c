package e2e_test

import (
	"bufio"
	"bytes"
	"cmp"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestEventsRSSFlat, opt-in (MCPTRAIL_RSS_TEST=1: RSS is too noisy for the
// default suite), relays 150,000 tools/call round trips, in batches of
// 1,000, through the real proxy with every events sink on (--metrics-listen,
// --events-file, --events-url and --otlp-endpoint to local receivers that
// accept everything; MCPTRAIL_RSS_SINKS=metrics,file,http,otlp picks
// them) and samples mcptrail's RSS after each 10,000 calls, once the
// events file shows the pipeline has caught up (with the file sink on).
// A tap's memory must follow its open calls, not its history: the median
// of the last three samples must be within 10% of the median of those
// after 30,000, 40,000 and 50,000 calls.
func TestEventsRSSFlat(t *testing.T) {
	if os.Getenv("MCPTRAIL_RSS_TEST") == "" {
		t.Skip("set MCPTRAIL_RSS_TEST=1 to measure RSS over 150,000 calls")
	}
	const total, batch, every = 150_000, 1_000, 10_000
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	defer sink.Close()
	dir := t.TempDir()
	sinks := map[string][]string{
		"metrics": {"--metrics-listen", "127.0.0.1:0"},
		"file":    {"--events-file", filepath.Join(dir, "events.jsonl")},
		"http":    {"--events-url", sink.URL + "/events"},
		"otlp":    {"--otlp-endpoint", sink.URL},
	}
	args := []string{"--capture", filepath.Join(dir, "c.jsonl")}
	hasFile := false
	for _, k := range strings.Split(cmp.Or(os.Getenv("MCPTRAIL_RSS_SINKS"), "metrics,file,http,otlp"), ",") {
		args = append(args, sinks[k]...)
		hasFile = hasFile || k == "file"
	}
	eventsFile := &lineCounter{path: filepath.Join(dir, "events.jsonl")}
	cmd := exec.Command(bins.mcptrail, append(args, "--", bins.fastserver)...)
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReaderSize(out, 1<<20)
	var samples []int64
	var buf []byte
	for id := 1; id <= total; {
		buf = buf[:0]
		for range batch {
			buf = appendRequest(buf, id)
			id++
		}
		if _, err := w.Write(buf); err != nil {
			t.Fatalf("writing requests: %v", err)
		}
		for range batch {
			if _, err := r.ReadSlice('\n'); err != nil {
				t.Fatalf("reading answers: %v", err)
			}
		}
		if hasFile {
			waitEvents(t, eventsFile, id-1)
		}
		if (id-1)%every == 0 {
			rss, err := testbin.VmRSS(cmd.Process.Pid)
			if err != nil {
				t.Skipf("no RSS: %v", err)
			}
			samples = append(samples, rss)
			t.Logf("%6d calls: RSS %.1f MiB", id-1, float64(rss)/(1<<20))
		}
	}
	_ = w.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcptrail: %v", err)
	}
	// Medians of three samples, so that one sample caught at a GC's peak
	// does not decide.
	early, last := median3(samples[2:5]), median3(samples[len(samples)-3:])
	t.Logf("RSS after 30,000-50,000 calls %.1f MiB, after %d-%d %.1f MiB (%+.1f%%; medians)", float64(early)/(1<<20), total-2*every, total, float64(last)/(1<<20), 100*float64(last-early)/float64(early))
	if float64(last) > 1.1*float64(early) {
		t.Errorf("RSS grew from %.1f MiB to %.1f MiB: more than 10%%", float64(early)/(1<<20), float64(last)/(1<<20))
	}
}

// median3 returns the median of three samples.
func median3(s []int64) int64 {
	a := slices.Clone(s)
	slices.Sort(a)
	return a[1]
}

// lineCounter counts the lines of a growing file, reading only what was
// added since the last count.
type lineCounter struct {
	path  string
	off   int64
	lines int
}

func (c *lineCounter) count() (int, error) {
	f, err := os.Open(c.path)
	if err != nil {
		return c.lines, err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for {
		n, err := f.ReadAt(buf, c.off)
		c.off += int64(n)
		c.lines += bytes.Count(buf[:n], []byte{'\n'})
		if err != nil {
			return c.lines, nil
		}
	}
}

// waitEvents waits, up to a minute, until the events file holds n events:
// the pipeline has caught up with the traffic, so an RSS sample measures
// what the tap keeps, not a backlog of records still to be read.
func waitEvents(t *testing.T, c *lineCounter, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		got, err := c.count()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the events file holds %d events, want %d (%v)", got, n, err)
		}
		time.Sleep(5 * time.Millisecond) // polling an external process's output
	}
}
