package redact_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
	jsonexport "github.com/mcptrail/mcptrail/internal/export/json"
	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The property: a session generated from the fuzz input, with secrets
// planted under preset keys, at paths a rule selects, inside strings a
// regex matches, and in elicitation answers, never shows a planted secret
// once redacted, on write or on read, in the capture, the JSON and text
// exports or the ledger; and redaction is idempotent.

// secretTag starts every planted secret; nothing else produces it.
const secretTag = "PLANTED"

// fuzzOptions are the rules the property is checked under.
func fuzzOptions() *redact.Options {
	return &redact.Options{
		Secrets: true,
		Paths:   []string{`$..ssn`, `$.params.arguments.card[*]`},
		Values:  []*regexp.Regexp{regexp.MustCompile(`sk-live-[A-Za-z0-9]+`)},
		Answers: true,
	}
}

// gen turns fuzz bytes into choices; it returns zeros once they run out.
type gen struct {
	data []byte
	n    int // secrets planted
}

func (g *gen) next(n int) int {
	if len(g.data) == 0 || n <= 1 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return int(b) % n
}

func (g *gen) secret() string {
	g.n++
	return secretTag + strconv.Itoa(g.n) + "x"
}

var plainKeys = []string{"a", "b", "name", "text", "data", "items", "meta", "Value", "params", "tools", "content", "result", "tokens", "my_token"}

// presetKey returns a preset key in a random case.
func (g *gen) presetKey() string {
	keys := redact.SecretKeys()
	k := []byte(keys[g.next(len(keys))])
	for i := range k {
		if g.next(2) == 1 && 'a' <= k[i] && k[i] <= 'z' {
			k[i] -= 'a' - 'A'
		}
	}
	return string(k)
}

// spelledKey returns a preset key as a JSON string with one byte spelled
// as a \u escape, or with the Kelvin sign for a k (which folds to it).
func (g *gen) spelledKey() string {
	k := g.presetKey()
	i := g.next(len(k))
	if j := strings.IndexAny(k, "kK"); j >= 0 && g.next(2) == 1 {
		return `"` + k[:j] + "\u212a" + k[j+1:] + `"`
	}
	return `"` + k[:i] + fmt.Sprintf(`\u%04x`, k[i]) + k[i+1:] + `"`
}

// str returns a JSON string, sometimes holding a regex-matched secret.
func (g *gen) str() string {
	switch g.next(5) {
	case 0:
		return strconv.Quote("see sk-live-" + g.secret() + " here")
	case 1:
		return strconv.Quote("plain \"quoted\" \\ text")
	case 2:
		return `"\u00e9t\u00e9 sk-live-` + g.secret() + `"`
	}
	return strconv.Quote("v" + strconv.Itoa(g.next(100)))
}

// value returns a random JSON value with secrets planted in it.
func (g *gen) value(depth int) string {
	switch k := g.next(6); {
	case depth > 3 || k == 0:
		return g.str()
	case k == 1:
		return strconv.Itoa(g.next(1000))
	case k == 2:
		var parts []string
		for range g.next(4) {
			parts = append(parts, g.value(depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	var members []string
	for range 1 + g.next(4) {
		var key, val string
		switch g.next(6) {
		case 0:
			key, val = g.presetKey(), g.secretValue(depth+1)
		case 5:
			key, val = g.spelledKey(), g.secretValue(depth+1)
		case 1:
			key, val = "ssn", g.secretValue(depth+1)
		default:
			key, val = plainKeys[g.next(len(plainKeys))], g.value(depth+1)
		}
		if key[0] != '"' {
			key = strconv.Quote(key)
		}
		members = append(members, key+":"+val)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// secretValue is a value that is secret as a whole.
func (g *gen) secretValue(depth int) string {
	switch g.next(3) {
	case 0:
		return strconv.Quote(g.secret())
	case 1:
		return `{"inner":` + strconv.Quote(g.secret()) + `,"n":1}`
	}
	return "[" + strconv.Quote(g.secret()) + "," + g.value(depth) + "]"
}

// textForm returns text holding secrets in the forms a key rule scrubs
// outside JSON: name=value, a header line, a flag, URL userinfo and query.
func (g *gen) textForm() string {
	var parts []string
	for range 1 + g.next(3) {
		forms := []string{
			"password=" + g.secret(),
			"Authorization: Bearer " + g.secret(),
			"Proxy-Authorization: " + g.secret(),
			"Cookie: a=" + g.secret() + "; b=2",
			"GET https://u:" + g.secret() + "@h/mcp?x=1&token=" + g.secret(),
			"--api-key " + g.secret(),
			"'secret'='" + g.secret() + "'",
			`{"Token": "` + g.secret() + `"`,
			"\xff x_access_token: " + g.secret(),
		}
		parts = append(parts, forms[g.next(len(forms))])
	}
	return strings.Join(parts, []string{" ", ", ", "\t"}[g.next(3)])
}

// line is one line the tap reads.
type line struct {
	t    capture.Type
	dir  capture.Dir
	text string
}

// session returns the lines of a generated session.
func (g *gen) session() []line {
	var out []line
	for i := 1; i <= 1+g.next(8); i++ {
		id := strconv.Itoa(i)
		var l line
		switch g.next(11) {
		case 9:
			l = line{capture.TypeStderr, capture.S2C, g.textForm()}
		case 10:
			l = line{capture.TypeFrame, capture.Dir([]string{"c2s", "s2c"}[g.next(2)]), "text " + g.textForm()}
		case 0:
			l = line{capture.TypeFrame, capture.C2S, `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"t","arguments":{"card":[` + strconv.Quote(g.secret()) + `],"x":` + g.value(1) + `}}}`}
		case 1:
			l = line{capture.TypeFrame, capture.S2C, `{"jsonrpc":"2.0","id":` + id + `,"result":{"tools":[{"name":"login","inputSchema":{"type":"object","properties":{"password":{"type":"string","default":` + strconv.Quote(g.secret()) + `},"x":{"enum":[` + g.str() + `],"default":` + g.value(2) + `}}}}]}}`}
		case 2:
			out = append(out, line{capture.TypeFrame, capture.S2C, `{"jsonrpc":"2.0","id":"e` + id + `","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"token":{"type":"string","const":` + strconv.Quote(g.secret()) + `}}}}}`})
			l = line{capture.TypeFrame, capture.C2S, `{"jsonrpc":"2.0","id":"e` + id + `","result":{"action":"accept","content":{"name":` + strconv.Quote(g.secret()) + `,"n":` + g.value(2) + `}}}`}
		case 3:
			l = line{capture.TypeFrame, capture.C2S, `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"t","arguments":{},"inputResponses":{"k":{"action":"accept","content":{"f":` + strconv.Quote(g.secret()) + `,"g":` + g.value(2) + `}}},"requestState":"s"}}`}
		case 4:
			l = line{capture.TypeStderr, capture.S2C, `log {"apiKey": "` + g.secret() + `"} and sk-live-` + g.secret()}
		case 5:
			l = line{capture.TypeFrame, capture.S2C, `garbage {"password":"` + g.secret() + `"`}
		case 6:
			l = line{capture.TypeFrame, capture.C2S, "  " + `{"jsonrpc":"2.0","method":"n","params":` + g.value(0) + "}\r"}
		case 7:
			l = line{capture.TypeFrame, capture.C2S, `[{"jsonrpc":"2.0","id":` + id + `,"method":"x","params":` + g.value(0) + `},{"jsonrpc":"2.0","method":"y"}]`}
		default:
			l = line{capture.TypeFrame, capture.Dir([]string{"c2s", "s2c"}[g.next(2)]), `{"jsonrpc":"2.0","id":` + id + `,"method":"m","params":` + g.value(0) + `}`}
		}
		out = append(out, l)
	}
	return out
}

var t0 = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)

func header() capture.Record {
	return capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion, SessionID: "s", Transport: "stdio",
		Command: []string{"server", "--api-key=" + secretTag + "cmd1", "--token", secretTag + "cmd2", "GITHUB_TOKEN=" + secretTag + "cmd3",
			"-c", "node --token " + secretTag + "cmd4 --api-key=" + secretTag + "cmd5 https://u:" + secretTag + "cmd6@h/?apikey=" + secretTag + "cmd7"}}
}

// keyOptions are rules of key and answer redaction only: the tap then
// lets the capture writer skip the frames whose member names the
// Redactor's NameFilter does not select.
func keyOptions() *redact.Options {
	return &redact.Options{Secrets: true, Keys: []string{"ssn", "Value"}, Answers: true}
}

// writeCapture writes lines as a capture, redacting them on write when
// red is not nil, as the stdio tap does: frames its NameFilter does not
// select are written without Line.
func writeCapture(t *testing.T, lines []line, red redact.Redactor) []byte {
	t.Helper()
	return writeCaptureVia(t, lines, red, true)
}

// writeCaptureVia is writeCapture that, unless filtered is set, passes
// every line through Line.
func writeCaptureVia(t *testing.T, lines []line, red redact.Redactor, filtered bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	h := header()
	if red != nil {
		red.Record(&h)
	}
	if err := w.Write(&h); err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		seq := uint64(i + 1)
		if l.t == capture.TypeStderr {
			seq = 0
		}
		at := t0.Add(time.Duration(i) * time.Millisecond)
		b := []byte(l.text)
		if filtered && red != nil && l.t == capture.TypeFrame && red.Names(l.dir) != nil {
			done, err := w.WriteLineUnselected(l.t, seq, at, l.dir, b, false, red.Names(l.dir))
			if err != nil {
				t.Fatal(err)
			}
			if done {
				continue
			}
		}
		var err error
		if out, changed := lineOf(red, l, b); changed {
			err = w.WriteRedactedLine(l.t, seq, at, l.dir, out, len(b), false, "", nil)
		} else {
			err = w.WriteLine(l.t, seq, at, l.dir, b, false, "", nil)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(&capture.Record{Type: capture.TypeEnd, Time: t0.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lineOf redacts b with red, when it is not nil.
func lineOf(red redact.Redactor, l line, b []byte) ([]byte, bool) {
	if red == nil {
		return b, false
	}
	return red.Line(l.t, l.dir, b)
}

// views reads a capture, redacting on read when red is not nil, and
// returns the JSON export, the text export, the ledger (table and JSON)
// and the analytics events with content (JSONL) together, and the records
// the store saw.
func views(t *testing.T, data []byte, red redact.Redactor) ([]byte, []capture.Record) {
	t.Helper()
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	h := *r.Header()
	if red != nil {
		red.Record(&h)
	}
	var out, jout, tout bytes.Buffer
	jw := jsonexport.New(&jout, &jsonexport.Options{SpoolDir: t.TempDir()})
	defer jw.Close()
	tw := textexport.New(&tout, &h, &textexport.Options{SpoolDir: t.TempDir()})
	defer tw.Close()
	st := store.New(&store.Options{OnFrame: func(f *store.Frame) { jw.Frame(f); tw.Frame(f) },
		OnStderr: func(l *store.StderrLine) { jw.Stderr(l); tw.Stderr(l) }})
	var evs []events.Event
	feed := events.NewFeed(true, func(e *events.Event) { evs = append(evs, *e) })
	st.Ingest(&h)
	feed.Ingest(&h)
	var recs []capture.Record
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			break
		}
		if red != nil {
			red.Record(&rec)
		}
		recs = append(recs, rec)
		st.Ingest(&rec)
		feed.Ingest(&rec)
	}
	snap := st.Final()
	if err := jw.Finish(snap); err != nil {
		t.Fatal(err)
	}
	if err := tw.Finish(snap); err != nil {
		t.Fatal(err)
	}
	out.Write(jout.Bytes())
	out.Write(tout.Bytes())
	var lines []textexport.LedgerLine
	rows := snap.Ledger.Slice()
	for i := range rows {
		lines = append(lines, textexport.LedgerLine{Row: &rows[i]})
		out.Write(jsonexport.AppendLedgerRow(nil, "s", &rows[i]))
	}
	if len(lines) > 0 {
		if err := textexport.WriteLedger(&out, lines, textexport.Layout{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := events.WriteJSONL(&out, evs); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), recs
}

func newRedactor(t *testing.T) redact.Redactor {
	t.Helper()
	r, err := redact.New(fuzzOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func checkNoSecret(t *testing.T, what string, b []byte) {
	t.Helper()
	if i := bytes.Index(b, []byte(secretTag)); i >= 0 {
		t.Fatalf("%s leaks a secret: …%s…", what, b[max(0, i-200):min(len(b), i+40)])
	}
	if i := bytes.Index(b, []byte("sk-live-")); i >= 0 {
		t.Fatalf("%s leaks a regex secret: …%s…", what, b[max(0, i-200):min(len(b), i+40)])
	}
}

func FuzzRedact(f *testing.F) {
	for i := range 40 {
		seed := make([]byte, 64)
		for j := range seed {
			seed[j] = byte(i*31 + j*7)
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{data: data}
		lines := g.session()

		// On write: the capture and every view are clean.
		written := writeCapture(t, lines, newRedactor(t))
		checkNoSecret(t, "capture redacted on write", written)
		outW, recsW := views(t, written, nil)
		checkNoSecret(t, "views of a capture redacted on write", outW)

		// On read: the views of the raw capture are clean.
		raw := writeCapture(t, lines, nil)
		outR, recsR := views(t, raw, newRedactor(t))
		checkNoSecret(t, "views redacted on read", outR)

		// Write and read agree record for record.
		if len(recsW) != len(recsR) {
			t.Fatalf("write path read %d records, read path %d", len(recsW), len(recsR))
		}
		for i := range recsW {
			w, r := recsW[i], recsR[i]
			if !bytes.Equal(w.Msg, r.Msg) || w.Raw != r.Raw || w.Text != r.Text || w.Redacted != r.Redacted || w.Size != r.Size {
				t.Fatalf("record %d: on write %+v\non read %+v", i, w, r)
			}
		}

		// With key rules only, the tap's NameFilter path records exactly
		// what passing every line through Line records.
		keys := func() redact.Redactor {
			r, err := redact.New(keyOptions())
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		if filtered, all := writeCapture(t, lines, keys()), writeCaptureVia(t, lines, keys(), false); !bytes.Equal(filtered, all) {
			t.Fatalf("the NameFilter path wrote\n%s\nLine wrote\n%s", filtered, all)
		}

		// Idempotent: redacting what was redacted changes nothing, on
		// lines and on records.
		again := newRedactor(t)
		for _, l := range lines {
			once, _ := newLineRedactor(t, lines, l)
			if twice, c := again.Line(l.t, l.dir, once); c {
				t.Fatalf("redacting twice changed\n%s\nto\n%s", once, twice)
			}
		}
		third := newRedactor(t)
		h := header()
		third.Record(&h)
		for i := range recsW {
			rec := recsW[i]
			before := fmt.Sprintf("%+v", rec)
			if third.Record(&rec) {
				t.Fatalf("redacting record %d twice changed it:\n%s\n%+v", i, before, rec)
			}
		}
	})
}

// newLineRedactor returns l redacted by a redactor that has seen the
// lines before it, as the tap's would have.
func newLineRedactor(t *testing.T, lines []line, l line) ([]byte, bool) {
	r := newRedactor(t)
	for _, p := range lines {
		out, c := r.Line(p.t, p.dir, []byte(p.text))
		if p == l {
			return out, c
		}
	}
	return nil, false
}

// TestMsgStaysJSON checks that a redacted message is still one valid JSON
// value, so the capture keeps it as msg.
func TestMsgStaysJSON(t *testing.T) {
	t.Parallel()
	g := &gen{data: bytes.Repeat([]byte{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9}, 20)}
	r := newRedactor(t)
	for _, l := range g.session() {
		out, _ := r.Line(l.t, l.dir, []byte(l.text))
		in := bytes.TrimSpace([]byte(l.text))
		if jsontext.Value(in).IsValid() && !jsontext.Value(bytes.TrimSpace(out)).IsValid() {
			t.Errorf("redacted message is not JSON: %s", out)
		}
	}
}
