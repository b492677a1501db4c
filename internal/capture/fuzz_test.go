package capture

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// addCaptureSeeds adds every capture under testdata, whole and cut at a few
// points, to f's corpus via add.
func addCaptureSeeds(f *testing.F, add func(b []byte)) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed captures in testdata: %v", err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		add(b)
		for _, cut := range []int{len(b) / 3, len(b) / 2, len(b) - 1, len(b) - 2} {
			add(b[:cut])
		}
	}
}

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, end
// with io.EOF (the input cannot fail), and every record it returns must
// survive a rewrite through the Writer byte for byte.
func FuzzReader(f *testing.F) {
	addCaptureSeeds(f, func(b []byte) { f.Add(b) })
	f.Add([]byte(`{"type":"session","format":1}` + "\n" + `{"type":"frame","seq":1,"msg":{"a":1,"a":2},"raw":"x"}` + "\n"))
	f.Add([]byte(`{"type":"session","format":1}` + "\n\n\n" + `{"type":"stderr","b64":"/w=="}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrNotCapture) && !errors.Is(err, ErrFutureVersion) {
				t.Fatalf("NewReader: unexpected error %v", err)
			}
			return
		}
		for {
			var rec Record
			err := r.Next(&rec)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if rec.Type == TypeFrame || rec.Type == TypeStderr {
				checkRewrite(t, &rec)
			}
		}
		d := r.Damage()
		if d.Corrupt < len(d.CorruptLines) || d.TornBytes > int64(len(data)) || d.Torn != (d.TornBytes > 0) {
			t.Fatalf("inconsistent damage %+v for %d bytes", d, len(data))
		}
	})
}

// checkRewrite writes rec's bytes as a new capture line and checks they
// read back unchanged.
func checkRewrite(t *testing.T, rec *Record) {
	t.Helper()
	line := rec.Bytes()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	_ = w.Write(&Record{Type: TypeSession, Format: FormatVersion})
	if err := w.WriteLine(rec.Type, 1, t0, C2S, line, rec.NoEOL, "", nil); err != nil {
		t.Fatal(err)
	}
	_ = w.Flush()
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatalf("rereading a rewritten record: %v", err)
	}
	var got Record
	if err := r.Next(&got); err != nil {
		t.Fatalf("rereading %q: %v (damage %+v)", line, err, r.Damage())
	}
	if !bytes.Equal(got.Bytes(), line) || got.Size != len(line) {
		t.Fatalf("rewrite of %q read back as %q (size %d)", line, got.Bytes(), got.Size)
	}
}

// FuzzTruncatedCapture writes the fuzz input as frames (split at 0x1e, so
// frames may hold newlines, CRs and invalid UTF-8), cuts the capture
// anywhere, and checks that it reopens with every complete record intact
// and the torn tail reported.
func FuzzTruncatedCapture(f *testing.F) {
	addCaptureSeeds(f, func(b []byte) { f.Add(bytes.ReplaceAll(b, []byte("\n"), []byte{0x1e}), uint32(len(b)/2)) })
	f.Add([]byte("{\"a\":\n1}\x1e\r\n\x1e\xff\x1e"), uint32(300))
	f.Fuzz(func(t *testing.T, data []byte, cut uint32) {
		lines := bytes.Split(data, []byte{0x1e})
		var buf bytes.Buffer
		w := NewWriter(&buf)
		_ = w.Write(&Record{Type: TypeSession, Time: t0, Format: FormatVersion, SessionID: "fuzz"})
		_ = w.Flush()
		header := buf.Len()
		ends := make([]int, len(lines))
		for i, line := range lines {
			typ := TypeFrame
			if i%3 == 2 {
				typ = TypeStderr
			}
			if err := w.WriteLine(typ, uint64(i+1), t0.Add(time.Duration(i)), C2S, line, false, "", nil); err != nil {
				t.Fatal(err)
			}
			_ = w.Flush()
			ends[i] = buf.Len()
		}
		b := buf.Bytes()
		n := int(cut % uint32(len(b)+1))
		checkTruncated(t, b[:n], header, lines, ends)
	})
}

func checkTruncated(t *testing.T, b []byte, header int, lines [][]byte, ends []int) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	if len(b) < header-1 {
		if !errors.Is(err, ErrNotCapture) {
			t.Fatalf("cut inside the header (%d of %d bytes): err %v, want ErrNotCapture", len(b), header, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("NewReader after a cut at %d: %v", len(b), err)
	}
	var want Damage
	start := header
	complete := 0
	for i, end := range ends {
		switch {
		case end-1 <= len(b): // whole, perhaps without its newline
			complete = i + 1
		case start < len(b):
			want = Damage{Torn: true, TornBytes: int64(len(b) - start)}
		}
		start = end
	}
	for i := 0; ; i++ {
		var rec Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			if i != complete {
				t.Fatalf("read %d records, want %d", i, complete)
			}
			break
		}
		if err != nil || i >= complete {
			t.Fatalf("record %d: err %v, %d complete records", i, err, complete)
		}
		if rec.Seq != uint64(i+1) || !bytes.Equal(rec.Bytes(), lines[i]) {
			t.Fatalf("record %d: seq %d, bytes %q; want %q", i, rec.Seq, rec.Bytes(), lines[i])
		}
	}
	if d := r.Damage(); d.Torn != want.Torn || d.TornBytes != want.TornBytes || d.Corrupt != 0 {
		t.Fatalf("damage %+v, want %+v", d, want)
	}
}
