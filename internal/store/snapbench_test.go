package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// sessionFrames writes, with the real Writer, a modern session of n frames
// as a client with a window of pipelined calls makes them: requests over
// eight tools answered window calls later, one call in ten an MRTR
// operation (an input_required result with a form elicitation and a
// requestState, a retry under a new id carrying both, then its result),
// one in 37 a tool error, and a few answers to no call. It returns the capture and its records as a
// Reader reads them.
func sessionFrames(tb testing.TB, n int) ([]byte, *capture.Record, []capture.Record) {
	tb.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	if err := w.Write(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion, SessionID: "bench"}); err != nil {
		tb.Fatal(err)
	}
	g := sessionGen{w: w, tb: tb}
	for g.seq < uint64(n) {
		g.step()
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	r, err := capture.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		tb.Fatal(err)
	}
	var recs []capture.Record
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			if !errors.Is(err, io.EOF) {
				tb.Fatal(err)
			}
			break
		}
		recs = append(recs, rec)
	}
	if len(recs) != n {
		tb.Fatalf("wrote %d frames, read %d", n, len(recs))
	}
	return buf.Bytes(), r.Header(), recs
}

// sessionGen makes the frames of sessionFrames.
type sessionGen struct {
	w       *capture.Writer
	tb      testing.TB
	seq     uint64
	next    int   // the next call number
	pending []int // calls asked and not yet answered, oldest first
	retried map[int]bool
}

const benchWindow = 64

// step sends one frame: the answer to the oldest call once the window is
// full, else a new request; every 997th frame answers a call nobody made
// (a finding).
func (g *sessionGen) step() {
	if g.seq%997 == 996 {
		g.emit(capture.S2C, done(`"nobody"`))
		return
	}
	if len(g.pending) < benchWindow {
		k := g.next
		g.next++
		g.pending = append(g.pending, k)
		g.emit(capture.C2S, tool(fmt.Sprint(k), fmt.Sprintf("tool%d", k%8), fmt.Sprintf(`{"n":%d}`, k/10), ""))
		return
	}
	k := g.pending[0]
	g.pending = g.pending[1:]
	id := fmt.Sprint(k)
	switch {
	case k%10 == 0 && !g.retried[k]:
		g.emit(capture.S2C, inputRequired(id, elicit("ok"), fmt.Sprintf("st%d", k)))
		if g.retried == nil {
			g.retried = make(map[int]bool)
		}
		r := g.next
		g.next++
		g.retried[r] = true
		g.pending = append(g.pending, r)
		g.emit(capture.C2S, tool(fmt.Sprint(r), fmt.Sprintf("tool%d", k%8), fmt.Sprintf(`{"n":%d}`, k/10),
			fmt.Sprintf(`,"inputResponses":{"ok":{"action":"accept","content":{}}},"requestState":"st%d"`, k)))
	case k%37 == 0:
		g.emit(capture.S2C, res(id, `{"resultType":"complete","isError":true,"content":[]}`))
	default:
		g.emit(capture.S2C, done(id))
	}
}

func (g *sessionGen) emit(dir capture.Dir, line string) {
	g.seq++
	if err := g.w.WriteLine(capture.TypeFrame, g.seq, t0.Add(time.Duration(g.seq)*time.Millisecond), dir, []byte(line), false, "", nil); err != nil {
		g.tb.Fatal(err)
	}
}

// BenchmarkSnapshotCost ingests a 200,000-frame session, plain and with
// 1,000 snapshots taken evenly between its records; the ratio of the two
// is what taking snapshots of a growing session costs. Compare the two
// with benchstat, or read BenchmarkSnapshotRatio.
func BenchmarkSnapshotCost(b *testing.B) {
	const frames, snaps = 200_000, 1_000
	_, h, recs := sessionFrames(b, frames)
	for _, every := range []int{0, frames / snaps} {
		name := "plain"
		if every > 0 {
			name = "snapshots"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ingestSnapshotting(b, h, recs, every)
			}
		})
	}
}

// BenchmarkSnapshotRatio runs both halves of BenchmarkSnapshotCost in
// every iteration, alternating which goes first, so that a shared
// machine's load weighs on both alike (each after a collection, so that
// neither pays for the other's garbage), and reports their ratio in wall
// time and in the process's CPU time (which a busy machine disturbs less).
func BenchmarkSnapshotRatio(b *testing.B) {
	const frames, snaps = 200_000, 1_000
	_, h, recs := sessionFrames(b, frames)
	var wall, cpu [2]time.Duration // plain, snapshots
	turn := 0
	for b.Loop() {
		for k := range 2 {
			half := (k + turn) % 2
			runtime.GC() // each half pays for the collections its own garbage causes
			start, startCPU := time.Now(), cpuTime()
			ingestSnapshotting(b, h, recs, half*frames/snaps)
			wall[half] += time.Since(start)
			cpu[half] += cpuTime() - startCPU
		}
		turn++
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(turn) }
	b.ReportMetric(per(wall[0]), "plain-ns/op")
	b.ReportMetric(per(wall[1]), "snapshots-ns/op")
	b.ReportMetric(float64(wall[1])/float64(wall[0]), "ratio")
	if cpu[0] > 0 {
		b.ReportMetric(per(cpu[0]), "plain-cpu-ns/op")
		b.ReportMetric(per(cpu[1]), "snapshots-cpu-ns/op")
		b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "cpu-ratio")
	}
}

// ingestSnapshotting ingests recs into a new store, taking a snapshot
// after every every-th record (never for 0), and finishes it.
func ingestSnapshotting(b *testing.B, h *capture.Record, recs []capture.Record, every int) {
	s := New(nil)
	s.Ingest(h)
	taken := 0
	for i := range recs {
		s.Ingest(&recs[i])
		if every > 0 && (i+1)%every == 0 {
			_ = s.Snapshot()
			taken++
		}
	}
	if snap := s.Final(); snap.Counts.Frames != len(recs) || every > 0 && taken != len(recs)/every {
		b.Fatalf("%d frames, %d snapshots", snap.Counts.Frames, taken)
	}
}
