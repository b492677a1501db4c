package httpproxy

import (
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkForwardLatency reports the p50 of one small tools/call POST
// (keep-alive, after the handshakes) to a loopback server: direct, through
// the forward proxy over http, and over https directly and through an
// intercepted tunnel; the capture goes to a file.
//
//	go test -run '^$' -bench ForwardLatency -benchtime 2000x ./internal/tap/httpproxy/
func BenchmarkForwardLatency(b *testing.B) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"sunny"}]}}`)
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	secure := httptest.NewTLSServer(handler)
	defer secure.Close()
	ca := newTestCA(b)
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	p, err := New(&Options{Capture: f, Forward: &ForwardOptions{Intercept: ca.serverConfig, RootCAs: originPool(secure)}})
	if err != nil {
		b.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer func() { front.Close(); _ = p.Close() }()
	pu, _ := url.Parse(front.URL)
	cases := []struct {
		name string
		tr   *http.Transport
		url  string
	}{
		{"http-direct", &http.Transport{}, plain.URL},
		{"http-forward", &http.Transport{Proxy: http.ProxyURL(pu)}, plain.URL},
		{"https-direct", &http.Transport{TLSClientConfig: &tls.Config{RootCAs: originPool(secure)}}, secure.URL},
		{"https-intercepted", &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: ca.pool()}}, secure.URL},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cl := &http.Client{Transport: c.tr}
			defer c.tr.CloseIdleConnections()
			post := func() {
				resp, err := cl.Post(c.url+"/mcp", "application/json", strings.NewReader(benchBody))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			post() // the handshakes
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				post()
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
