package stdio

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// recordInChunks feeds line (split in relay-sized chunks, with a newline
// unless noEOL) through a recorder and returns the frame record it wrote.
func recordInChunks(t *testing.T, line []byte, noEOL bool, red redact.Redactor) (capture.Record, string) {
	t.Helper()
	var out bytes.Buffer
	r := newRecorder(&out, &record.Options{Redact: red})
	r.spoolDir = t.TempDir()
	data := line
	if !noEOL {
		data = append(append([]byte(nil), line...), '\n')
	}
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	for len(data) > 0 {
		n := min(bufSize, len(data))
		it := item{kind: itemData, stream: streamS2C, at: at, data: data[:n]}
		r.data(&it)
		data = data[n:]
		if len(r.partial[streamS2C]) > capture.SpoolAbove {
			t.Fatalf("the partial line holds %d bytes in memory", len(r.partial[streamS2C]))
		}
	}
	r.eof(&item{kind: itemEOF, stream: streamS2C, at: at})
	r.out.Flush()
	if r.out.Err() != nil {
		t.Fatal(r.out.Err())
	}
	_, recs, _, err := capture.ReadAll(strings.NewReader(`{"type":"session","format":1}` + "\n" + out.String()))
	if err != nil || len(recs) != 1 {
		t.Fatalf("read back %d records: %v", len(recs), err)
	}
	return recs[0], out.String()
}

// TestSpooledLine: a line past capture.SpoolAbove is recorded, from its
// spool, exactly as a line held in memory would be, with or without its
// newline; with redaction on, a secret in it is still redacted.
func TestSpooledLine(t *testing.T) {
	big := strings.Repeat("é\\\"x", capture.SpoolAbove/4)
	tests := []struct {
		name       string
		line       string
		noEOL      bool
		secrets    bool
		redacted   bool
		wantInFile string // a substring the record must hold
	}{
		{name: "json", line: `{"jsonrpc":"2.0","id":1,"result":{"text":"` + big + `"}}`},
		{name: "json without newline", line: ` {"jsonrpc":"2.0","id":1,"result":{"text":"` + big + `"}}` + "\r", noEOL: true},
		{name: "text", line: "log: " + big},
		{name: "not utf-8", line: "\xff" + big},
		{name: "redaction, nothing to redact", line: `{"jsonrpc":"2.0","id":1,"result":{"text":"` + big + `"}}`, secrets: true},
		{name: "redaction of a key", line: `{"jsonrpc":"2.0","id":1,"result":{"api_key":"sk-canary","text":"` + big + `"}}`, secrets: true, redacted: true, wantInFile: `"api_key":"[REDACTED]"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var red redact.Redactor
			if tc.secrets {
				r, err := redact.New(&redact.Options{Secrets: true})
				if err != nil {
					t.Fatal(err)
				}
				red = r
			}
			rec, file := recordInChunks(t, []byte(tc.line), tc.noEOL, red)
			if rec.Size != len(tc.line) || rec.NoEOL != tc.noEOL || rec.Redacted != tc.redacted {
				t.Errorf("size %d noeol %v redacted %v, want %d %v %v", rec.Size, rec.NoEOL, rec.Redacted, len(tc.line), tc.noEOL, tc.redacted)
			}
			if !tc.redacted {
				if got := rec.Bytes(); !bytes.Equal(got, []byte(tc.line)) {
					t.Errorf("recorded %d bytes, not the %d sent", len(got), len(tc.line))
				}
				var small bytes.Buffer
				w := capture.NewWriter(&small)
				_ = w.WriteLine(capture.TypeFrame, 0, rec.Time, capture.S2C, []byte(tc.line), tc.noEOL, "", nil)
				_ = w.Flush()
				if !strings.Contains(file, small.String()[len(`{"type":"frame"`):]) {
					t.Error("the spooled record is not the record WriteLine writes")
				}
			}
			if !strings.Contains(file, tc.wantInFile) || strings.Contains(file, "sk-canary") {
				t.Errorf("record lacks %q or holds the secret", tc.wantInFile)
			}
		})
	}
}
