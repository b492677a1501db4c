package httpproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchBody is a typical small tools/call.
const benchBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Lyon"},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`

// benchPair starts a target answering JSON and a capturing proxy in front
// of it (capture to a file), and returns both URLs.
func benchPair(b *testing.B) (direct, proxied string) {
	b.Helper()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"sunny, 21°C"}]}}`)
	}))
	b.Cleanup(target.Close)
	u, _ := url.Parse(target.URL)
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := New(&Options{Target: u, Capture: f})
	if err != nil {
		b.Fatal(err)
	}
	front := httptest.NewServer(p)
	b.Cleanup(func() {
		front.Close()
		if err := p.Close(); err != nil {
			b.Error(err)
		}
		f.Close()
	})
	return target.URL, front.URL
}

func benchPost(b *testing.B, c *http.Client, u string) {
	resp, err := c.Post(u, "application/json", strings.NewReader(benchBody))
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
}

// BenchmarkLatency alternates one request straight to the target and one
// through the proxy, on one keep-alive client each, and reports the
// percentiles of both and what the proxy adds (µs).
func BenchmarkLatency(b *testing.B) {
	direct, proxied := benchPair(b)
	cd := &http.Client{Transport: &http.Transport{}}
	cp := &http.Client{Transport: &http.Transport{}}
	for range 200 { // warm up connections and pools
		benchPost(b, cd, direct)
		benchPost(b, cp, proxied)
	}
	var dl, pl []time.Duration
	for b.Loop() {
		t0 := time.Now()
		benchPost(b, cd, direct)
		t1 := time.Now()
		benchPost(b, cp, proxied)
		t2 := time.Now()
		dl, pl = append(dl, t1.Sub(t0)), append(pl, t2.Sub(t1))
	}
	d50, d99 := percentiles(dl)
	p50, p99 := percentiles(pl)
	b.ReportMetric(us(d50), "direct-p50-µs")
	b.ReportMetric(us(d99), "direct-p99-µs")
	b.ReportMetric(us(p50), "proxy-p50-µs")
	b.ReportMetric(us(p99), "proxy-p99-µs")
	b.ReportMetric(us(p50-d50), "added-p50-µs")
	b.ReportMetric(us(p99-d99), "added-p99-µs")
}

// BenchmarkThroughput measures requests per second from 8 parallel
// clients per CPU, straight to the target, through a bare
// httputil.ReverseProxy (the cost of a hop) and through the capturing
// proxy; the ratios of the req/s are the proxy's throughput cost.
func BenchmarkThroughput(b *testing.B) {
	for _, via := range []string{"direct", "bare", "proxy"} {
		b.Run(via, func(b *testing.B) {
			direct, proxied := benchPair(b)
			u := direct
			switch via {
			case "proxy":
				u = proxied
			case "bare":
				t, _ := url.Parse(direct)
				tr := http.DefaultTransport.(*http.Transport).Clone()
				tr.MaxIdleConnsPerHost = maxIdlePerHost
				bare := httptest.NewServer(&httputil.ReverseProxy{
					Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(t) },
					Transport: tr,
				})
				defer bare.Close()
				u = bare.URL
			}
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
			b.SetParallelism(8)
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					benchPost(b, c, u)
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		})
	}
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)*50/100], s[min(len(s)-1, len(s)*99/100)]
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
