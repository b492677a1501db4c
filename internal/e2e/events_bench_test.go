package e2e_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRoundTripEvents measures one-at-a-time round-trip latency
// through mcptrail with no events sink, with --events-file, and with
// --events-url pointing at a server that accepts connections and never
// answers (a stalled sink: its queue fills, then events are dropped and
// counted). The traffic must not notice. Metrics are microseconds and the
// stalled/none ratio. At the end it checks that mcptrail reported the
// drops on exit.
func BenchmarkRoundTripEvents(b *testing.B) {
	stall := make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()
	defer close(stall)
	dir := b.TempDir()
	configs := []struct{ name, flag, val string }{
		{"none", "", ""},
		{"file", "--events-file", filepath.Join(dir, "events.jsonl")},
		{"stalled", "--events-url", "http://" + ln.Addr().String() + "/events"},
	}
	var peers []*peer
	var stalledErr bytes.Buffer
	for _, c := range configs {
		args := []string{"--capture", filepath.Join(dir, c.name+".jsonl")}
		if c.flag != "" {
			args = append(args, c.flag, c.val, "--events-flush-timeout", "200ms")
		}
		args = append(args, "--", bins.fastserver)
		var stderr io.Writer
		if c.name == "stalled" {
			stderr = &stalledErr
		}
		p := startPeer(b, c.name, append([]string{bins.mcptrail}, args...), stderr)
		peers = append(peers, p)
		for range 200 {
			p.roundTrip(b)
		}
	}
	lat := measureRoundTrips(b, peers)
	p50 := map[string]float64{}
	for k, p := range peers {
		p50[p.name] = percentile(lat[k], 0.50)
		b.ReportMetric(p50[p.name], p.name+"-p50-µs")
		b.ReportMetric(percentile(lat[k], 0.99), p.name+"-p99-µs")
	}
	b.ReportMetric(p50["stalled"]/p50["none"], "stalled-vs-none-p50")
	for _, p := range peers {
		p.close()
	}
	if len(lat[2])+200 > 4096 && !strings.Contains(stalledErr.String(), "dropped (queue full)") {
		b.Errorf("mcptrail did not report dropped events on exit; stderr:\n%s", stalledErr.String())
	}
	b.Logf("stalled sink, on exit: %s", strings.TrimSpace(stalledErr.String()))
}
