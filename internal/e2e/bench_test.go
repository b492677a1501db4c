package e2e_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// peer is a running server configuration the benchmark client talks to.
type peer struct {
	name string
	// capture is the capture file mcptrail writes, when it writes one.
	capture string
	cmd     *exec.Cmd
	w       io.WriteCloser
	r       *bufio.Reader
	buf     []byte
	next    int // next request id
}

// benchPeers starts, side by side: the fast server alone (direct), the
// `cat | SERVER | cat` floor, mcptrail with capture on, and mcptrail
// --no-capture (the relay alone, for reference).
func benchPeers(b *testing.B) []*peer {
	b.Helper()
	capt := filepath.Join(b.TempDir(), "bench.jsonl")
	configs := []struct {
		name string
		argv []string
	}{
		{"direct", []string{bins.fastserver}},
		{"floor", []string{"sh", "-c", "cat | " + bins.fastserver + " | cat"}},
		{"mcptrail", []string{bins.mcptrail, "--capture", capt, "--", bins.fastserver}},
		{"nocapture", []string{bins.mcptrail, "--no-capture", "--", bins.fastserver}},
	}
	var peers []*peer
	for _, c := range configs {
		p := startPeer(b, c.name, c.argv, nil)
		if c.name == "mcptrail" {
			p.capture = capt
		}
		b.Cleanup(p.close)
		peers = append(peers, p)
	}
	for _, p := range peers { // warm up
		for range 200 {
			p.roundTrip(b)
		}
	}
	return peers
}

// startPeer starts argv as the peer name, with its stderr going to stderr
// (nil: discarded).
func startPeer(b *testing.B, name string, argv []string, stderr io.Writer) *peer {
	b.Helper()
	p := &peer{name: name, cmd: exec.Command(argv[0], argv[1:]...), next: 1}
	p.cmd.Stderr = stderr
	var err error
	if p.w, err = p.cmd.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	p.r = bufio.NewReaderSize(out, 1<<20)
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return p
}

func (p *peer) close() {
	_ = p.w.Close()
	_ = p.cmd.Wait()
}

// roundTrip sends one request and waits for its answer.
func (p *peer) roundTrip(b *testing.B) time.Duration {
	p.buf = appendRequest(p.buf[:0], p.next)
	p.next++
	start := time.Now()
	if _, err := p.w.Write(p.buf); err != nil {
		b.Fatalf("%s: writing: %v", p.name, err)
	}
	if _, err := p.r.ReadSlice('\n'); err != nil {
		b.Fatalf("%s: reading: %v", p.name, err)
	}
	return time.Since(start)
}

// burst pipelines n requests and returns the time until the last answer
// was read and, with a capture, its frame is in the capture file.
func (p *peer) burst(b *testing.B, n int) time.Duration {
	data := make([]byte, 0, n*100)
	for range n {
		data = appendRequest(data, p.next)
		p.next++
	}
	start := time.Now()
	errc := make(chan error, 1)
	go func() {
		_, err := p.w.Write(data)
		errc <- err
	}()
	for range n {
		if _, err := p.r.ReadSlice('\n'); err != nil {
			b.Fatalf("%s: reading: %v", p.name, err)
		}
	}
	if p.capture != "" {
		// A burst is done when its last frame is on disk: the peer's
		// seqs count both directions, warm-up included.
		waitOnDisk(b, p.capture, uint64(2*(p.next-1)))
	}
	d := time.Since(start)
	if err := <-errc; err != nil {
		b.Fatalf("%s: writing: %v", p.name, err)
	}
	return d
}

// latencyBlock is how many round trips BenchmarkRoundTrip makes through
// one configuration before moving to the next.
const latencyBlock = 250

func percentile(ds []time.Duration, q float64) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[int(q*float64(len(s)-1))].Nanoseconds()) / 1e3
}

// measureRoundTrips times b.N round trips through each peer, with the
// benchmark timer running only around them: blocks of latencyBlock per
// peer, rotating. It returns each peer's latencies.
func measureRoundTrips(b *testing.B, peers []*peer) [][]time.Duration {
	lat := make([][]time.Duration, len(peers))
	b.ResetTimer()
	for start := 0; start < b.N; start += latencyBlock {
		for k := range peers {
			for range min(latencyBlock, b.N-start) {
				lat[k] = append(lat[k], peers[k].roundTrip(b))
			}
		}
	}
	b.StopTimer()
	return lat
}

// BenchmarkRoundTrip measures one-at-a-time round-trip latency through
// each configuration. Each op is one round trip through each; they run in
// blocks of latencyBlock per configuration, rotating, so drift hits all
// alike while each block measures a warm loop. Metrics are microseconds
// and ratios to the floor.
func BenchmarkRoundTrip(b *testing.B) {
	peers := benchPeers(b)
	lat := measureRoundTrips(b, peers)
	p50 := map[string]float64{}
	p99 := map[string]float64{}
	for k, p := range peers {
		p50[p.name], p99[p.name] = percentile(lat[k], 0.50), percentile(lat[k], 0.99)
		b.ReportMetric(p50[p.name], p.name+"-p50-µs")
		b.ReportMetric(p99[p.name], p.name+"-p99-µs")
	}
	b.ReportMetric(p50["mcptrail"]/p50["floor"], "p50-vs-floor")
	b.ReportMetric(p99["mcptrail"]/p99["floor"], "p99-vs-floor")
	b.ReportMetric(p50["floor"]/p50["direct"], "floor-vs-direct")
}

// settle waits until mcptrail's capture stops growing, so the records it
// writes after a burst do not take CPU from the next configuration's burst.
func (p *peer) settle(b *testing.B) {
	if p.capture == "" {
		return
	}
	var last int64 = -1
	for stable := 0; stable < 5; {
		time.Sleep(2 * time.Millisecond) // polling an external process's file
		fi, err := os.Stat(p.capture)
		if err != nil {
			b.Fatal(err)
		}
		if fi.Size() == last {
			stable++
		} else {
			stable, last = 0, fi.Size()
		}
	}
}

// BenchmarkPipelined measures pipelined throughput: each op is one burst
// of requests written without waiting, through each configuration in
// turn. A burst through mcptrail with capture on is done when its last
// frame is in the capture file, not when it was forwarded. A burst of
// 10,000 fits in mcptrail's capture queue, which records it as the burst
// ends; 200,000 (about 40 MB) overflows it, so the rate is bounded by how
// fast the capture is written. Metrics are requests per second and the
// ratio to the floor.
func BenchmarkPipelined(b *testing.B) {
	for _, n := range []int{10_000, 200_000} {
		b.Run(fmt.Sprintf("burst=%d", n), func(b *testing.B) {
			peers := benchPeers(b)
			total := make([]time.Duration, len(peers))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range peers {
					k := (i + j) % len(peers)
					total[k] += peers[k].burst(b, n)
					b.StopTimer()
					peers[k].settle(b)
					b.StartTimer()
				}
			}
			b.StopTimer()
			rate := map[string]float64{}
			for k, p := range peers {
				rate[p.name] = float64(n*b.N) / total[k].Seconds()
				b.ReportMetric(rate[p.name], p.name+"-req/s")
			}
			b.ReportMetric(rate["mcptrail"]/rate["floor"], "tput-vs-floor")
		})
	}
}
