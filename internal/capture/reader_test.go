package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// frames writes n small frames, alternating directions, seq 1..n.
func frames(t testing.TB, n int) func(w *Writer) {
	return func(w *Writer) {
		for i := 1; i <= n; i++ {
			dir := C2S
			if i%2 == 0 {
				dir = S2C
			}
			line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m%d"}`, i, i)
			if err := w.WriteLine(TypeFrame, uint64(i), t0.Add(time.Duration(i)*time.Millisecond), dir, []byte(line), false, "", nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// seqs lists the records' seqs.
func seqs(recs []Record) []uint64 {
	var out []uint64
	for _, r := range recs {
		out = append(out, r.Seq)
	}
	return out
}

func TestReaderDamage(t *testing.T) {
	t.Parallel()
	good := newCapture(t, frames(t, 3))
	lines := strings.SplitAfter(string(good), "\n") // header, 3 frames, ""
	torn := `{"type":"frame","seq":4,"time":"2026-07-28T12:00:00Z","dir":"c2s","size":20,"msg":{"jsonrpc":"2.0","i`
	tests := []struct {
		name string
		in   string
		seqs []uint64
		dmg  Damage
	}{
		{"clean", string(good), []uint64{1, 2, 3}, Damage{}},
		{"torn last line", string(good) + torn, []uint64{1, 2, 3}, Damage{Torn: true, TornBytes: int64(len(torn))}},
		{"torn inside a record", string(good[:len(good)-10]), []uint64{1, 2}, Damage{Torn: true, TornBytes: int64(len(lines[3]) - 10)}},
		{"last record without its newline", string(good[:len(good)-1]), []uint64{1, 2, 3}, Damage{}},
		{
			"corrupt middle lines",
			lines[0] + lines[1] + "garbage\n" + "{}\n" + "\n" + `{"type":"frame","seq":"x"}` + "\n" + lines[2] + lines[3],
			[]uint64{1, 2, 3},
			Damage{Corrupt: 4, CorruptLines: []int{3, 4, 5, 6}},
		},
		{
			"corrupt lines then torn tail",
			lines[0] + lines[1] + "\x00\xff\n" + lines[2] + torn,
			[]uint64{1, 2},
			Damage{Corrupt: 1, CorruptLines: []int{3}, Torn: true, TornBytes: int64(len(torn))},
		},
		{
			"corrupt line numbers capped",
			lines[0] + strings.Repeat("x\n", 25) + lines[1],
			[]uint64{1},
			Damage{Corrupt: 25, CorruptLines: []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			recs, dmg := readAll(t, []byte(tt.in))
			if diff := cmp.Diff(tt.seqs, seqs(recs)); diff != "" {
				t.Errorf("seqs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.dmg, dmg); diff != "" {
				t.Errorf("damage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewReaderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"empty file", "", ErrNotCapture},
		{"empty line", "\n", ErrNotCapture},
		{"not json", "hello\n", ErrNotCapture},
		{"json-rpc message", `{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n", ErrNotCapture},
		{"frame first", `{"type":"frame","seq":1,"time":"2026-07-28T12:00:00Z","dir":"c2s","size":2,"msg":{}}` + "\n", ErrNotCapture},
		{"no format", `{"type":"session","time":"2026-07-28T12:00:00Z"}` + "\n", ErrNotCapture},
		{"torn header", `{"type":"session","time":"2026-07-28T12:00:00Z","for`, ErrNotCapture},
		{"future format", `{"type":"session","time":"2026-07-28T12:00:00Z","format":2,"new_field":{"x":1}}` + "\n", ErrFutureVersion},
		{"far future format", `{"type":"session","format":99}` + "\n", ErrFutureVersion},
		{"current format", `{"type":"session","time":"2026-07-28T12:00:00Z","format":1}` + "\n", nil},
		{"header without newline", `{"type":"session","time":"2026-07-28T12:00:00Z","format":1}`, nil},
		{"unknown header fields", `{"type":"session","time":"2026-07-28T12:00:00Z","format":1,"later":[1]}` + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := NewReader(strings.NewReader(tt.in))
			if !errors.Is(err, tt.want) || (tt.want == nil) != (r != nil) {
				t.Fatalf("NewReader(%q) = %v, %v; want error %v", tt.in, r, err, tt.want)
			}
			if tt.want == ErrNotCapture && errors.Is(err, ErrFutureVersion) {
				t.Errorf("NewReader(%q) = %v: both not-a-capture and future-version", tt.in, err)
			}
		})
	}
}

// TestReaderStickyError checks that an I/O error ends the stream for good
// and is not mistaken for damage.
func TestReaderStickyError(t *testing.T) {
	t.Parallel()
	good := newCapture(t, frames(t, 2))
	boom := errors.New("disk on fire")
	lines := bytes.SplitAfter(good, []byte("\n"))
	in := io.MultiReader(bytes.NewReader(bytes.Join(lines[:2], nil)), iotest.ErrReader(boom))
	r, err := NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	if err := r.Next(&rec); err != nil || rec.Seq != 1 {
		t.Fatalf("first Next = %v (seq %d), want seq 1", err, rec.Seq)
	}
	for range 2 {
		if err := r.Next(&rec); !errors.Is(err, boom) {
			t.Fatalf("Next after the I/O error = %v, want %v", err, boom)
		}
	}
	if d := r.Damage(); d.Torn || d.Corrupt != 0 {
		t.Errorf("damage %+v after an I/O error, want none", d)
	}
}

// TestReaderLongLine reads a 5 MB frame (five times the reader's buffer)
// between two small ones.
func TestReaderLongLine(t *testing.T) {
	t.Parallel()
	big := `{"jsonrpc":"2.0","id":2,"result":{"text":"` + strings.Repeat("abcdefghij", 500_000) + `"}}`
	bigText := strings.Repeat("not json ", 600_000)
	in := []string{`{"jsonrpc":"2.0","id":1,"method":"a"}`, big, bigText, `{"jsonrpc":"2.0","id":3,"method":"c"}`}
	b := newCapture(t, func(w *Writer) {
		for i, line := range in {
			if err := w.WriteLine(TypeFrame, uint64(i+1), t0, C2S, []byte(line), false, "", nil); err != nil {
				t.Fatal(err)
			}
		}
	})
	recs, dmg := readAll(t, b)
	if len(recs) != len(in) || dmg.Corrupt != 0 || dmg.Torn {
		t.Fatalf("read %d records, damage %+v; want %d", len(recs), dmg, len(in))
	}
	for i := range in {
		if got := recs[i].Bytes(); string(got) != in[i] || recs[i].Size != len(in[i]) {
			t.Errorf("record %d: %d bytes (size %d), want %d, equal %v", i, len(got), recs[i].Size, len(in[i]), string(got) == in[i])
		}
	}
	// A torn 5 MB tail is skipped and measured.
	cut := len(b) - 1_000_000
	recs, dmg = readAll(t, b[:cut])
	if len(recs) != 2 || !dmg.Torn || dmg.TornBytes < 4_000_000 {
		t.Errorf("torn inside the long text line: %d records, damage %+v; want 2 records and a torn tail", len(recs), dmg)
	}
}

// TestReaderNoAliasing checks that records from successive Next calls
// (including their msg values) stay intact after the reader moves on.
func TestReaderNoAliasing(t *testing.T) {
	t.Parallel()
	const n = 5000 // > the reader's 1 MB buffer, so it refills
	b := newCapture(t, frames(t, n))
	recs, _ := readAll(t, b)
	if len(recs) != n {
		t.Fatalf("read %d records, want %d", len(recs), n)
	}
	for i, r := range recs {
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m%d"}`, i+1, i+1)
		if string(r.Msg) != want {
			t.Fatalf("record %d msg = %s after reading on, want %s", i, r.Msg, want)
		}
	}
	// Reusing one Record for every Next must not leak fields between records.
	r, err := NewReader(bytes.NewReader(newCapture(t, func(w *Writer) {
		_ = w.WriteLine(TypeFrame, 1, t0, C2S, []byte("{\"a\":1}\r"), true, "c1", nil)
		_ = w.WriteLine(TypeStderr, 2, t0, "", []byte("plain"), false, "", nil)
	})))
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	_ = r.Next(&rec)
	first := rec
	if err := r.Next(&rec); err != nil {
		t.Fatal(err)
	}
	want := Record{Type: TypeStderr, Seq: 2, Time: t0, Size: 5, Text: "plain"}
	if diff := cmp.Diff(want, rec, ignorePos); diff != "" {
		t.Errorf("reused record (-want +got):\n%s", diff)
	}
	if string(first.Msg) != `{"a":1}` || first.Raw != "{\"a\":1}\r" || !first.NoEOL || first.Conn != "c1" {
		t.Errorf("first record changed after Next reused its variable: %+v", first)
	}
}

func TestDamageString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		d    Damage
		want string
	}{
		{Damage{}, ""},
		{Damage{Torn: true, TornBytes: 24}, "torn last line (24 bytes)"},
		{Damage{Corrupt: 1, CorruptLines: []int{3}}, "1 corrupt line"},
		{Damage{Torn: true, TornBytes: 5, Corrupt: 2}, "torn last line (5 bytes); 2 corrupt lines"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.d, got, tc.want)
		}
	}
}
