package capture

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// spoolLines are lines of every form a record can take, and of the shapes
// that cut across pieces: runes, escapes, surrogate pairs, numbers,
// literals, nesting, white space before and after (Unicode spaces too).
func spoolLines() []string {
	return []string{
		``,
		`plain text`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"héllo \u00e9 \ud83d\ude00 \"q\" \\ \/"}]}}`,
		"  {\"a\" : [1, -2.5e+3, 0, true, false, null, {}, []] }\r",
		"\u00a0\u3000{\"k\":1}\u2028 \t",
		"{\n  \"a\": \"x\\ny\",\n  \"b\": [ 1,\n 2 ]\n}",
		"\n[1,2]\n",
		`{"token":"secret","api_key":1}`,
		`{"TOKEN":1}`,
		`{"t\u006fken":1}`,
		`{"é":1}`,
		`{"` + strings.Repeat("k", maxMasked+3) + `":1}`,
		`{"` + strings.Repeat("k", maxMasked+4) + `":1}`,
		`{"a":1}x`,
		`{"a":1} }`,
		`{"a":01}`,
		`{"a":1.}`,
		`{"a":-}`,
		`{"a":1e}`,
		`{"a":tru}`,
		`{"a":"\ud800"}`,
		`{"a":"\udc00"}`,
		`{"a":"\ud800\u0041"}`,
		`{"a":"\x"}`,
		"{\"a\":\"\x01\"}",
		`[1,]`,
		`{"a":1,}`,
		`{"a" 1}`,
		`["a"]]`,
		`[`,
		`"just a string"`,
		`42`,
		"\xff\xfe{}",
		"{\"a\":\"\xc3\"}",
		"caf\xc3\xa9 \xe2\x82",
		strings.Repeat("[", 3) + strings.Repeat("]", 3),
		strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
		strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
		"\u0085{\"a\":[]}\u00a0",
		"\x00\x1f\x7f<>&\u2028\u2029",
	}
}

// spoolRecord writes line through a Spool fed in pieces of split bytes and
// read back chunk bytes at a time, and returns the record and Selected.
func spoolRecord(t testing.TB, typ Type, line []byte, split, chunk int, f *NameFilter, noEOL bool) ([]byte, bool) {
	t.Helper()
	s, err := NewSpool(t.TempDir(), typ, f)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.chunk = chunk
	for p := line; len(p) > 0; {
		n := min(split, len(p))
		if _, err := s.Write(p[:n]); err != nil {
			t.Fatal(err)
		}
		p = p[n:]
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	at := time.Date(2026, 7, 28, 12, 0, 0, 5, time.UTC)
	if err := w.WriteSpooled(typ, 7, at, S2C, s, noEOL, "c1", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), s.Selected()
}

// lineRecord is what WriteLine writes for line, and what
// WriteLineUnselected says of it.
func lineRecord(t testing.TB, typ Type, line []byte, f *NameFilter, noEOL bool) ([]byte, bool) {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out)
	at := time.Date(2026, 7, 28, 12, 0, 0, 5, time.UTC)
	if err := w.WriteLine(typ, 7, at, S2C, line, noEOL, "c1", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	selected := true
	if f != nil {
		var none bytes.Buffer
		done, err := NewWriter(&none).writeLine(&Line{Type: typ, Seq: 7, Time: at, Dir: S2C, Bytes: line, NoEOL: noEOL, Conn: "c1"}, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		selected = !done
	}
	return out.Bytes(), selected
}

// TestSpoolMatchesWriteLine: a spooled line's record is byte for byte the
// record WriteLine writes, however the line was cut into pieces and read
// back, and Selected agrees with WriteLineUnselected.
func TestSpoolMatchesWriteLine(t *testing.T) {
	for _, line := range spoolLines() {
		for _, typ := range []Type{TypeFrame, TypeStderr} {
			want, wantSel := lineRecord(t, typ, []byte(line), testFilter(), true)
			for _, cut := range [][2]int{{1, 1}, {2, 3}, {3, 5}, {7, 64}, {1 << 20, spoolChunk}} {
				got, gotSel := spoolRecord(t, typ, []byte(line), cut[0], cut[1], testFilter(), true)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s %.60q split %v:\n got %.300s\nwant %.300s", typ, line, cut, got, want)
				}
				if typ == TypeFrame && gotSel != wantSel {
					t.Errorf("%.60q split %v: Selected %v, WriteLineUnselected says %v", line, cut, gotSel, wantSel)
				}
			}
		}
	}
}

// TestSpoolLargeRecordStreams: a spooled frame of many buffers' size is
// written out while it is encoded, so the Writer's buffer stays small.
func TestSpoolLargeRecordStreams(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("é\\n", 3*bufSize) + `"}}`)
	s, err := NewSpool(t.TempDir(), TypeFrame, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Write(line); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	if err := w.WriteSpooled(TypeFrame, 1, time.Unix(0, 0), C2S, s, false, "", nil); err != nil {
		t.Fatal(err)
	}
	if cap(w.buf) > 2*bufSize+spoolChunk {
		t.Errorf("writer buffer grew to %d bytes for a %d-byte frame", cap(w.buf), len(line))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	_, recs, dmg, err := ReadAll(strings.NewReader(`{"type":"session","format":1}` + "\n" + out.String()))
	if err != nil || dmg.Corrupt != 0 || len(recs) != 1 {
		t.Fatalf("read back: %v, %+v, %d records", err, dmg, len(recs))
	}
	if got := recs[0].Bytes(); !bytes.Equal(got, line) || recs[0].Size != len(line) || len(recs[0].Msg) == 0 {
		t.Errorf("read back %d bytes (size %d, msg %d), want the %d-byte frame as msg", len(got), recs[0].Size, len(recs[0].Msg), len(line))
	}
}

// FuzzSpool holds WriteSpooled (and lineScan) to WriteLine's records and
// WriteLineUnselected's answers, for any line cut anywhere.
func FuzzSpool(f *testing.F) {
	for _, l := range spoolLines() {
		if len(l) < 1000 {
			f.Add([]byte(l), uint8(1), uint8(1), true)
			f.Add([]byte(l), uint8(3), uint8(5), false)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte, split, chunk uint8, frame bool) {
		typ := TypeStderr
		if frame {
			typ = TypeFrame
		}
		want, wantSel := lineRecord(t, typ, line, testFilter(), false)
		got, gotSel := spoolRecord(t, typ, line, int(split)+1, int(chunk)+4, testFilter(), false)
		if !bytes.Equal(got, want) {
			t.Fatalf("split %d chunk %d:\n got %s\nwant %s", split, chunk, got, want)
		}
		if frame && gotSel != wantSel {
			t.Fatalf("Selected %v, WriteLineUnselected says %v", gotSel, wantSel)
		}
	})
}
