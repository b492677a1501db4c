// Command bench measures mcptrail's stdio relay side by side with the floor
// of any stdio proxy, two cat processes (sh -c 'cat | SERVER | cat'), in one
// run, so the figures of docs/benchmarks.md can be measured again on any
// machine:
//
//	go run ./scripts/bench                  # 5 runs, 100 B and 1 KiB frames
//	go run ./scripts/bench -runs 9 -frames 100000
//	MCPSNOOP_BIN=/path/to/mcpsnoop go run ./scripts/bench   # the peer too
//	go run ./scripts/bench -baseline /tmp/mcptrail-old      # before and after in one run
//
// Each run starts every configuration afresh for each frame size, in an
// order that rotates from run to run, and measures two phases of -frames
// frames each: sequential (one request at a time: the round trip's p50 and
// the relay's CPU per frame) and pipelined (every request written without
// waiting: frames per second, counted for mcptrail with capture on when the
// last frame is in the capture file, and the relay's CPU per frame). The
// server is internal/e2e/fastserver, which answers each line at once with an
// answer of the same size. A relay's CPU is that of its processes (the two
// cats of the floor; mcptrail itself), without the server's, from the
// threads' run time in /proc. Start-up is the
// time from exec to the first byte the server writes arriving through the
// relay. The table gives the medians over the runs.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	frames, runs, startups int
	sizes                  []int
}

func run() error {
	var o options
	var sizes string
	flag.IntVar(&o.frames, "frames", 50_000, "frames in each phase")
	flag.IntVar(&o.runs, "runs", 5, "runs; the table gives their medians")
	flag.IntVar(&o.startups, "startups", 21, "start-ups timed per configuration")
	flag.StringVar(&sizes, "sizes", "100,1024", "frame sizes in bytes, newline included")
	mcptrail := flag.String("mcptrail", "", "the mcptrail binary (default: built from this checkout)")
	baseline := flag.String("baseline", "", "another mcptrail binary (an older build) measured beside it, as \"before\"")
	flag.Parse()
	for f := range strings.SplitSeq(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 100 {
			return fmt.Errorf("-sizes: %q is not a frame size of at least 100 bytes", f)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.frames < 1 || o.runs < 1 || o.startups < 1 {
		return errors.New("-frames, -runs and -startups must be at least 1")
	}

	dir, err := os.MkdirTemp("", "mcptrail-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	home = filepath.Join(dir, "home")
	server := filepath.Join(dir, "fastserver")
	if err := goBuild(server, "./internal/e2e/fastserver"); err != nil {
		return err
	}
	if *mcptrail == "" {
		*mcptrail = filepath.Join(dir, "mcptrail")
		if err := goBuild(*mcptrail, "./cmd/mcptrail"); err != nil {
			return err
		}
	}
	cfgs := configs(*mcptrail, *baseline, dir)
	fmt.Printf("mcptrail bench: %d frames a phase, medians of %d runs; %s; load average %s at the start\n\n",
		o.frames, o.runs, cpuName(), loadAvg())

	startup := map[string][]time.Duration{}
	for range o.startups {
		for _, c := range append([]config{{name: "server alone"}}, cfgs...) {
			d, err := startupTime(c, server)
			if err != nil {
				return fmt.Errorf("%s: start-up: %w", c.name, err)
			}
			startup[c.name] = append(startup[c.name], d)
		}
	}
	fmt.Printf("start-up, exec to the server's first byte through the relay (median of %d):\n", o.startups)
	for _, c := range append([]config{{name: "server alone"}}, cfgs...) {
		fmt.Printf("  %-22s %s\n", c.name, ms(median(startup[c.name])))
	}
	fmt.Println()

	results := map[string][]phase{} // by size and config
	for r := range o.runs {
		for _, size := range o.sizes {
			for k := range cfgs {
				c := cfgs[(k+r)%len(cfgs)]
				p, err := measure(c, server, size, o.frames)
				if err != nil {
					return fmt.Errorf("%s, %d B frames: %w", c.name, size, err)
				}
				key := fmt.Sprint(size, c.name)
				results[key] = append(results[key], p)
			}
		}
		fmt.Fprintf(os.Stderr, "run %d of %d done\n", r+1, o.runs)
	}
	printTable(o, cfgs, results)
	fmt.Printf("\nload average %s at the end\n", loadAvg())
	return nil
}

// goBuild builds pkg of the module around the working directory to out.
func goBuild(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w (run bench from the repository's root)", pkg, err)
	}
	return nil
}

// config is one way of putting the server behind a relay.
type config struct {
	name string
	// argv is the command line with the server's argv appended.
	argv func(server []string) []string
	// capture is the capture file a configuration writes, if any: a
	// pipelined phase ends when its last frame is there.
	capture string
	// peer marks the peer, whose frames lost are not counted (its own
	// capture is not read).
	peer bool
}

// configs returns the floor and mcptrail's two modes, then, when
// baseline names another build, its two modes ("before"), then the peer
// when MCPSNOOP_BIN names it.
func configs(mcptrail, baseline, dir string) []config {
	cs := []config{
		{name: "floor", argv: func(s []string) []string {
			return []string{"sh", "-c", "cat | " + shellJoin(s) + " | cat"}
		}},
	}
	modes := func(bin, prefix, capture string) {
		cs = append(cs,
			config{name: prefix + "--no-capture", argv: func(s []string) []string {
				return append([]string{bin, "--no-capture", "--"}, s...)
			}},
			config{name: prefix + "capture on", capture: capture, argv: func(s []string) []string {
				return append([]string{bin, "--capture", capture, "--"}, s...)
			}})
	}
	modes(mcptrail, "", filepath.Join(dir, "capture.jsonl"))
	if baseline != "" {
		modes(baseline, "before: ", filepath.Join(dir, "capture-before.jsonl"))
	}
	if peer := os.Getenv("MCPSNOOP_BIN"); peer != "" {
		cs = append(cs, config{name: "mcpsnoop", peer: true, argv: func(s []string) []string {
			return append([]string{peer, "--"}, s...)
		}})
	}
	return cs
}

func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// startupTime starts the server behind c (alone when c has no argv) with
// -ready, and times exec to reading the server's first line.
func startupTime(c config, server string) (time.Duration, error) {
	argv := []string{server, "-ready"}
	if c.capture != "" {
		os.Remove(c.capture)
	}
	if c.argv != nil {
		argv = c.argv(argv)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = benchEnv()
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	d := time.Since(start)
	w.Close()
	_, _ = io.Copy(io.Discard, out)
	if werr := cmd.Wait(); err == nil {
		err = werr
	}
	if err == nil && line != "ready\n" {
		err = fmt.Errorf("first line %q, want ready", line)
	}
	return d, err
}

// home is the state directory the relays run with, in the bench's temporary
// directory, so their sessions and index stay out of the user's.
var home string

func benchEnv() []string { return append(os.Environ(), "MCPTRAIL_HOME="+home) }

// phase is what one configuration measured in one run at one size.
type phase struct {
	p50          time.Duration // sequential round trip
	seqCPU       time.Duration // relay CPU per frame, sequential
	rate         float64       // pipelined frames per second (requests and answers)
	pipeCPU      time.Duration // relay CPU per frame, pipelined
	lost         int           // frames missing from the capture
	answersShort int           // answers not received
}

// measure starts the server behind c with answers of size bytes and
// measures its two phases of frames frames each.
func measure(c config, server string, size, frames int) (phase, error) {
	var p phase
	if c.capture != "" {
		os.Remove(c.capture)
	}
	s, err := startRelay(c, server, size)
	if err != nil {
		return p, err
	}
	defer s.stop()
	buf := make([]byte, 0, size)
	for range 200 { // warm up
		if err := s.roundTrip(buf); err != nil {
			return p, err
		}
	}
	if err := s.sequential(&p, frames); err != nil {
		return p, err
	}
	return p, s.pipelined(&p, c.capture, frames)
}

// relayRun is one configuration running: the relay's stdin and stdout, and
// the id of the next request.
type relayRun struct {
	cmd  *exec.Cmd
	w    io.WriteCloser
	out  io.ReadCloser
	r    *bufio.Reader
	size int
	next int
}

func startRelay(c config, server string, size int) (*relayRun, error) {
	argv := c.argv([]string{server, "-size", strconv.Itoa(size)})
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = benchEnv()
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &relayRun{cmd: cmd, w: w, out: out, r: bufio.NewReaderSize(out, 1<<20), size: size, next: 1}, nil
}

// stop closes the relay's stdin, drains its stdout and waits for it.
func (s *relayRun) stop() {
	s.w.Close()
	_, _ = io.Copy(io.Discard, s.out)
	_ = s.cmd.Wait()
}

// roundTrip writes one request, built in buf, and reads its answer.
func (s *relayRun) roundTrip(buf []byte) error {
	buf = appendRequest(buf[:0], s.next, s.size)
	s.next++
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	_, err := s.r.ReadSlice('\n')
	return err
}

// sequential measures frames round trips one at a time: p's p50 and the
// relay's CPU per frame.
func (s *relayRun) sequential(p *phase, frames int) error {
	buf := make([]byte, 0, s.size)
	lat := make([]time.Duration, 0, frames)
	cpu0 := relayCPU(s.cmd.Process.Pid)
	for range frames {
		t := time.Now()
		if err := s.roundTrip(buf); err != nil {
			return err
		}
		lat = append(lat, time.Since(t))
	}
	p.p50 = median(lat)
	p.seqCPU = (relayCPU(s.cmd.Process.Pid) - cpu0) / time.Duration(2*frames)
	return nil
}

// pipelined writes frames requests without waiting and reads their
// answers: p's rate (counted when the last frame is in capture, if the
// configuration writes one), the relay's CPU per frame, and what was lost.
func (s *relayRun) pipelined(p *phase, capture string, frames int) error {
	data := make([]byte, 0, frames*s.size)
	for range frames {
		data = appendRequest(data, s.next, s.size)
		s.next++
	}
	if capture != "" {
		waitOnDisk(capture, 2*(s.next-1-frames), 30*time.Second)
	}
	cpu0 := relayCPU(s.cmd.Process.Pid)
	start := time.Now()
	errc := make(chan error, 1)
	go func() { // one write a frame, as a client writes its messages
		var err error
		for off := 0; off < len(data) && err == nil; off += s.size {
			_, err = s.w.Write(data[off : off+s.size])
		}
		errc <- err
	}()
	for i := range frames {
		if _, err := s.r.ReadSlice('\n'); err != nil {
			p.answersShort = frames - i
			break
		}
	}
	if capture != "" {
		p.lost = 2*(s.next-1) - waitOnDisk(capture, 2*(s.next-1), time.Minute)
	}
	d := time.Since(start)
	p.pipeCPU = (relayCPU(s.cmd.Process.Pid) - cpu0) / time.Duration(2*frames)
	p.rate = float64(2*frames) / d.Seconds()
	return <-errc
}

// appendRequest appends a tools/call request of exactly size bytes,
// newline included.
func appendRequest(b []byte, id, size int) []byte {
	start := len(b)
	b = fmt.Appendf(b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"`, id)
	const tail = `"}}}` + "\n"
	for len(b)-start+len(tail) < size {
		b = append(b, 'p')
	}
	return append(b, tail...)
}

// waitOnDisk waits until the capture's last frame record has seq want or
// the timeout passes, and returns the last seq it saw.
func waitOnDisk(path string, want int, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	last := 0
	for {
		last = lastSeq(path)
		if last >= want || time.Now().After(deadline) {
			return last
		}
		time.Sleep(200 * time.Microsecond) // polling another process's file
	}
}

func lastSeq(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	buf := make([]byte, 8192)
	n, _ := f.ReadAt(buf, max(fi.Size()-int64(len(buf)), 0))
	buf = buf[:n]
	// Only whole records count: cut a torn last one.
	buf = buf[:bytes.LastIndexByte(buf, '\n')+1]
	i := bytes.LastIndex(buf, []byte(`{"type":"frame","seq":`))
	if i < 0 {
		return 0
	}
	rest := buf[i+len(`{"type":"frame","seq":`):]
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return 0
	}
	seq, _ := strconv.Atoi(string(rest[:end]))
	return seq
}

// relayCPU is the CPU time of pid and its descendants, less the server's
// (fastserver's) own: the sum of their threads' run time, in nanoseconds
// (/proc/PID/task/TID/schedstat).
func relayCPU(pid int) time.Duration {
	var total time.Duration
	var walk func(pid int)
	walk = func(pid int) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		// comm is in parentheses and may hold spaces.
		i, j := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if i < 0 || j < i {
			return
		}
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
		for _, t := range tasks {
			if string(stat[i+1:j]) != "fastserver" {
				if b, err := os.ReadFile(t + "/schedstat"); err == nil {
					if f := strings.Fields(string(b)); len(f) > 0 {
						ns, _ := strconv.ParseInt(f[0], 10, 64)
						total += time.Duration(ns)
					}
				}
			}
			kids, _ := os.ReadFile(t + "/children")
			for k := range strings.FieldsSeq(string(kids)) {
				if n, err := strconv.Atoi(k); err == nil {
					walk(n)
				}
			}
		}
	}
	walk(pid)
	return total
}

func printTable(o options, cfgs []config, results map[string][]phase) {
	fmt.Println("| frames | relay | round trip p50 | × floor | CPU/frame, sequential | pipelined frames/s | × floor | CPU/frame, pipelined | frames lost |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, size := range o.sizes {
		floor := results[fmt.Sprint(size, "floor")]
		fp50, frate := median(pick(floor, func(p phase) time.Duration { return p.p50 })), medianF(pickF(floor, func(p phase) float64 { return p.rate }))
		for _, c := range cfgs {
			ps := results[fmt.Sprint(size, c.name)]
			p50 := median(pick(ps, func(p phase) time.Duration { return p.p50 }))
			rate := medianF(pickF(ps, func(p phase) float64 { return p.rate }))
			lost := 0
			for _, p := range ps {
				lost += p.lost + p.answersShort
			}
			lostText := fmt.Sprint(lost)
			if c.peer {
				lostText = "not counted" // the peer's own capture is not read
			}
			fmt.Printf("| %s | %s | %s | %.2f× | %s | %s | %.2f× | %s | %s |\n",
				sizeText(size), c.name, us(p50), float64(p50)/float64(fp50),
				us(median(pick(ps, func(p phase) time.Duration { return p.seqCPU }))),
				kilo(rate), rate/frate,
				us(median(pick(ps, func(p phase) time.Duration { return p.pipeCPU }))),
				lostText)
		}
	}
	fmt.Println("\nCPU is the relay's own, its threads' run time over the phase's frames (requests and answers);")
	fmt.Println("frames/s counts requests and answers; capture on is counted when the last frame is on disk.")
}

func pick(ps []phase, f func(phase) time.Duration) []time.Duration {
	out := make([]time.Duration, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out
}

func pickF(ps []phase, f func(phase) float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianF(fs []float64) float64 {
	if len(fs) == 0 {
		return 0
	}
	s := slices.Clone(fs)
	slices.Sort(s)
	return s[len(s)/2]
}

func sizeText(n int) string {
	if n%1024 == 0 {
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d B", n)
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }
func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
func kilo(f float64) string     { return fmt.Sprintf("%.0fk", f/1000) }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	n := 0
	name := "unknown CPU"
	for line := range strings.SplitSeq(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			switch strings.TrimSpace(k) {
			case "processor":
				n++
			case "model name":
				name = strings.TrimSpace(v)
			}
		}
	}
	return fmt.Sprintf("%d × %s", n, name)
}
