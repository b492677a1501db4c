package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// checkFastLine decodes line with the fast path and, when it accepts the
// line, checks that json.Unmarshal (what the Reader falls back to) accepts
// it too and decodes the very same record. It reports whether the fast
// path took the line.
func checkFastLine(t *testing.T, line []byte) bool {
	t.Helper()
	var st fastState
	var fast Record
	if !st.decodeFast(line, &fast) {
		return false
	}
	var slow Record
	if err := json.Unmarshal(line, &slow, jsontext.AllowDuplicateNames(true)); err != nil || slow.Type == "" {
		t.Fatalf("fast path accepted %q, Unmarshal refuses it: %v", line, err)
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Fatalf("fast path decodes %q differently (-unmarshal +fast):\n%s", line, diff)
	}
	if fast.Time.Location() != slow.Time.Location() || fast.Time != slow.Time {
		t.Fatalf("fast path time %#v, Unmarshal %#v", fast.Time, slow.Time)
	}
	return true
}

func TestFastLineTakesWriterLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  Type
		at   time.Time
		dir  Dir
		line string
		eol  bool
		conn string
		http *HTTP
		fast bool
	}{
		{"request", TypeFrame, t0, C2S, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, false, "", nil, true},
		{"whole second", TypeFrame, t0.Truncate(time.Second), S2C, `{"jsonrpc":"2.0","id":1,"result":{}}`, false, "", nil, true},
		{"batch with duplicates", TypeFrame, t0, C2S, `[{"a":1,"a":2}]`, true, "", nil, true},
		{"raw kept", TypeFrame, t0, C2S, " {\"a\":\n\"x\\\"y\"}\r", false, "", nil, true},
		{"not json", TypeFrame, t0, C2S, `hello "world" é`, false, "", nil, true},
		{"stderr", TypeStderr, t0, "", "panic: boom\tat line 3", false, "", nil, true},
		{"unicode msg", TypeFrame, t0, S2C, `{"t":"héllo \u00e9 \ud83d\ude00"}`, false, "", nil, true},
		{"conn", TypeFrame, t0, C2S, `{}`, false, "conn-1", nil, true},
		{"http envelope", TypeFrame, t0, C2S, `{}`, false, "", &HTTP{Exchange: "x1", Status: 200}, false},
		{"invalid utf-8", TypeFrame, t0, C2S, "\xff\xfe", false, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			w := NewWriter(&buf)
			if err := w.WriteLine(tt.typ, 7, tt.at, tt.dir, []byte(tt.line), tt.eol, tt.conn, tt.http); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			line := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if got := checkFastLine(t, line); got != tt.fast {
				t.Errorf("fast path took %s: %v, want %v", line, got, tt.fast)
			}
		})
	}
}

func TestFastLineRefuses(t *testing.T) {
	t.Parallel()
	const ok = `{"type":"frame","seq":1,"time":"2026-07-28T12:00:00Z","dir":"c2s","size":2,"msg":{}}`
	refused := []string{
		`{"type":"frame","seq":01,"time":"2026-07-28T12:00:00Z","msg":{}}`,
		`{"type":"frame","seq":1.0,"msg":{}}`,
		`{"type":"frame","seq":-1,"msg":{}}`,
		`{"type":"frame","seq":18446744073709551616,"msg":{}}`,
		`{"type":"frame","seq":1,"seq":2}`,
		`{"type":"frame","time":"2026-07-28T12:00:00+00:00"}`,
		`{"type":"frame","time":"2026-07-28T12:00:00.Z"}`,
		`{"type":"frame","time":"2026-02-30T12:00:00Z"}`,
		`{"type":"frame","msg":{"a":}}`,
		`{"type":"frame","msg":{"a":"` + "\xff" + `"}}`,
		`{"type":"frame","msg":"x"}`,
		`{"type":"frame","text":"` + "\x01" + `"}`,
		`{"type":"frame","dir":"c\u0032s"}`,
		`{"type":"frame","b64":"/w=="}`,
		`{"type":"frame","other":1}`,
		`{"type":"frame"} `,
		`{"type":"frame","msg":{}}}`,
		`{"type":"note","note":"x"}`,
		ok + " ",
	}
	for _, line := range refused {
		if checkFastLine(t, []byte(line)) {
			t.Errorf("fast path took %s", line)
		}
	}
	if !checkFastLine(t, []byte(ok)) {
		t.Errorf("fast path refused %s", ok)
	}
}

// FuzzFastLine is the differential test of the fast path: on any line it
// accepts, json.Unmarshal must agree exactly.
func FuzzFastLine(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			f.Add(line)
		}
	}
	f.Add([]byte(`{"type":"frame","seq":3,"time":"2026-07-28T12:00:00.5Z","dir":"s2c","conn":"c","size":9,"msg":{"a":[1,{"b":"\"}"}]},"raw":" {\"a\":1}","noeol":true}`))
	f.Add([]byte(`{"type":"frame","seq":5,"time":"2026-07-28T12:00:00Z","dir":"c2s","size":40,"msg":{"token":"[REDACTED]"},"redacted":true}`))
	f.Add([]byte(`{"type":"stderr","seq":4,"time":"2026-07-28T12:00:00Z","size":3,"text":"a\u00e9\n"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkFastLine(t, line)
	})
}
