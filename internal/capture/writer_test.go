package capture

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// refLine is the frame encoder as first written, field by field with no
// caching: the Writer's hot path must produce the very same bytes.
func refLine(t Type, seq uint64, at time.Time, dir Dir, line []byte, noEOL bool, conn string, env *HTTP) []byte {
	b := append([]byte(nil), `{"type":"`...)
	b = append(b, t...)
	b = append(b, '"')
	if seq != 0 {
		b = append(b, `,"seq":`...)
		b = strconv.AppendUint(b, seq, 10)
	}
	b = append(b, `,"time":"`...)
	b = at.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	if dir != "" {
		b = append(b, `,"dir":"`...)
		b = append(b, dir...)
		b = append(b, '"')
	}
	if conn != "" {
		b = append(b, `,"conn":`...)
		b, _ = jsontext.AppendQuote(b, conn)
	}
	if env != nil {
		e, _ := json.Marshal(env)
		b = append(b, `,"http":`...)
		b = append(b, e...)
	}
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, int64(len(line)), 10)
	switch trimmed := bytes.TrimSpace(line); {
	case !utf8.Valid(line):
		b = append(b, `,"b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, line)
		b = append(b, '"')
	case t == TypeFrame && len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') &&
		jsontext.Value(trimmed).IsValid(jsontext.AllowDuplicateNames(true)):
		msg := append(jsontext.Value(nil), trimmed...)
		if bytes.IndexByte(trimmed, '\n') >= 0 {
			_ = msg.Compact()
		}
		b = append(b, `,"msg":`...)
		b = append(b, msg...)
		if len(msg) != len(line) {
			b = append(b, `,"raw":`...)
			b, _ = jsontext.AppendQuote(b, line)
		}
	default:
		b = append(b, `,"text":`...)
		b, _ = jsontext.AppendQuote(b, line)
	}
	if noEOL {
		b = append(b, `,"noeol":true`...)
	}
	return append(b, "}\n"...)
}

// refLineArgs is one WriteLine call.
type refLineArgs struct {
	typ   Type
	seq   uint64
	at    time.Time
	dir   Dir
	line  string
	noEOL bool
	conn  string
	env   *HTTP
}

// TestWriteLineMatchesReference runs sequences that exercise the Writer's
// caches (seq counting up across digit carries, seq jumps, time, direction
// and connection changes, stderr between frames) and compares every byte
// with refLine.
func TestWriteLineMatchesReference(t *testing.T) {
	t.Parallel()
	t1 := t0.Add(1500 * time.Microsecond)
	t2 := t0.Add(time.Second).In(time.FixedZone("x", 3600))
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, " {\"a\":1}\r", "{\"a\":\n1}", `[1,2]`, `{"a":}`, "plain",
		"\xff\xfe", "\u00a0{}\u00a0", "\u0085[]", `{"a":"é"}`, "{\"a\":\"\xff\"}", "", " ", "{}\v", "\t[true]\n",
		`{ "a" : [ 1 , 2 ] }`, "{ \"a\" :\r\n [1] }", "[\"x\\ny\"]",
	}
	var calls []refLineArgs
	for seq := uint64(1); seq <= 1200; seq++ {
		calls = append(calls, refLineArgs{TypeFrame, seq, t0, C2S, lines[int(seq)%len(lines)], seq%97 == 0, "", nil})
	}
	calls = append(calls,
		refLineArgs{TypeFrame, 99999, t0, S2C, lines[0], false, "", nil},
		refLineArgs{TypeFrame, 100000, t0, S2C, lines[0], false, "", nil},
		refLineArgs{TypeStderr, 0, t0, "", "warn: x", false, "", nil},
		refLineArgs{TypeFrame, 100001, t1, S2C, lines[1], false, "", nil},
		refLineArgs{TypeFrame, 100002, t1, C2S, lines[2], false, "", nil},
		refLineArgs{TypeFrame, 100003, t2, C2S, lines[3], false, "c1", nil},
		refLineArgs{TypeFrame, 100004, t2, C2S, lines[3], false, "c2", nil},
		refLineArgs{TypeFrame, 100005, t2, C2S, lines[3], false, "", &HTTP{Exchange: "e", Status: 200}},
		refLineArgs{TypeFrame, 100006, t2, C2S, lines[3], false, "", nil},
		refLineArgs{TypeFrame, 7, t2, C2S, lines[4], false, "", nil},
		refLineArgs{TypeFrame, 0, t2, C2S, lines[5], false, "", nil},
		refLineArgs{TypeFrame, 1, t2, C2S, lines[5], false, "", nil},
		refLineArgs{TypeStderr, 2, t2, "", lines[6], true, "", nil},
		refLineArgs{TypeFrame, 18446744073709551615, t2, C2S, lines[0], false, "", nil},
		refLineArgs{TypeFrame, 9, t2, C2S, strings.Repeat("x", 12345), false, "", nil},
	)
	var got, want bytes.Buffer
	w := NewWriter(&got)
	for _, c := range calls {
		if err := w.WriteLine(c.typ, c.seq, c.at, c.dir, []byte(c.line), c.noEOL, c.conn, c.env); err != nil {
			t.Fatal(err)
		}
		want.Write(refLine(c.typ, c.seq, c.at, c.dir, []byte(c.line), c.noEOL, c.conn, c.env))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(want.String(), "\n"), strings.Split(got.String(), "\n")); diff != "" {
		t.Errorf("WriteLine output (-reference +got):\n%s", diff)
	}
}

// FuzzWriteLineMatchesReference checks arbitrary lines against refLine.
func FuzzWriteLineMatchesReference(f *testing.F) {
	for _, s := range validSeeds() {
		if len(s) < 1000 {
			f.Add([]byte(s), uint64(9))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte, seq uint64) {
		var got bytes.Buffer
		w := NewWriter(&got)
		var want []byte
		for k := range uint64(3) {
			if err := w.WriteLine(TypeFrame, seq+k, t0, S2C, line, false, "", nil); err != nil {
				t.Fatal(err)
			}
			want = append(want, refLine(TypeFrame, seq+k, t0, S2C, line, false, "", nil)...)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("WriteLine(%q) =\n%s\nwant\n%s", line, got.Bytes(), want)
		}
	})
}

// shortWriter accepts up to room bytes, then fails.
type shortWriter struct {
	bytes.Buffer
	room int
}

func (s *shortWriter) Write(p []byte) (int, error) {
	if len(p) > s.room {
		n, _ := s.Buffer.Write(p[:s.room])
		s.room = 0
		return n, errors.New("disk full")
	}
	s.room -= len(p)
	return s.Buffer.Write(p)
}

// TestWriterBuffering checks that records stay buffered below bufSize, go
// out in blocks past it, and that a failed write is sticky and leaves
// Buffered counting exactly the bytes that did not reach the writer.
func TestWriterBuffering(t *testing.T) {
	t.Parallel()
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	sw := &shortWriter{room: bufSize + bufSize/2}
	w := NewWriter(sw)
	total := 0
	for seq := uint64(1); sw.Len() == 0; seq++ {
		if err := w.WriteLine(TypeFrame, seq, t0, S2C, line, false, "", nil); err != nil {
			t.Fatal(err)
		}
		total += len(refLine(TypeFrame, seq, t0, S2C, line, false, "", nil))
		if sw.Len() == 0 && w.Buffered() != total {
			t.Fatalf("Buffered() = %d after %d bytes", w.Buffered(), total)
		}
	}
	if sw.Len() != total || sw.Len() < bufSize || w.Buffered() != 0 {
		t.Fatalf("wrote %d of %d bytes, %d buffered", sw.Len(), total, w.Buffered())
	}
	var err error
	for seq := uint64(1 << 20); err == nil; seq++ {
		err = w.WriteLine(TypeFrame, seq, t0, S2C, line, false, "", nil)
		total += len(refLine(TypeFrame, seq, t0, S2C, line, false, "", nil))
	}
	if sw.Len()+w.Buffered() != total {
		t.Errorf("after the failure: %d written + %d buffered, want %d", sw.Len(), w.Buffered(), total)
	}
	if err2 := w.Write(&Record{Type: TypeEnd, Time: t0}); !errors.Is(err2, err) && err2.Error() != err.Error() {
		t.Errorf("error not sticky: %v then %v", err, err2)
	}
	if ferr := w.Flush(); ferr == nil {
		t.Error("Flush after a failure succeeded")
	}
}

// TestWriterHeadersInNameOrder: header maps (a frame's HTTP envelope, an
// exchange record's) are written in name order, so one run's capture is
// the same bytes every time it is written.
func TestWriterHeadersInNameOrder(t *testing.T) {
	t.Parallel()
	headers := map[string]string{"Mcp-Method": "tools/call", "Accept": "*/*", "Content-Type": "application/json", "Mcp-Name": "x", "Zz": "1", "B": "2"}
	const want = `"headers":{"Accept":"*/*","B":"2","Content-Type":"application/json","Mcp-Method":"tools/call","Mcp-Name":"x","Zz":"1"}`
	const wantReq = `"req_headers":{"Accept":"*/*","B":"2","Content-Type":"application/json","Mcp-Method":"tools/call","Mcp-Name":"x","Zz":"1"}`
	for range 20 {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		if err := w.Append(&Line{Type: TypeFrame, Seq: 1, Time: t0, Dir: C2S, Bytes: []byte(`{}`), HTTP: &HTTP{Exchange: "x1", Headers: headers}}); err != nil {
			t.Fatal(err)
		}
		if err := w.Write(&Record{Type: TypeExchange, Seq: 2, Time: t0, Exchange: &Exchange{ReqHeaders: headers}}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out := buf.String(); !strings.Contains(out, want) || !strings.Contains(out, wantReq) {
			t.Fatalf("headers not in name order:\n%s", out)
		}
	}
}
