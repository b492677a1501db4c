package e2e_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// TestRedactionTransparency runs the real binary with redaction on (every
// rule, and key rules only): the peers still receive exactly what the other side sent, and
// the capture holds no secret, marks what it changed, keeps each frame's
// original size, and equals what redaction on read makes of an unredacted
// capture of the same traffic.
func TestRedactionTransparency(t *testing.T) {
	t.Parallel()
	c2s := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"api_key\":\"sk-secret1\",\"q\":\"hi\"}}}\r\n" +
		"  { \"jsonrpc\" : \"2.0\", \"id\" : 2, \"method\" : \"ping\", \"params\" : { \"Token\" : \"t1\" } }  \n" +
		"{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"result\":{\"action\":\"accept\",\"content\":{\"name\":\"Ann Typed\"}}}\n" +
		"not json \"password\": \"pw1\" sk-secret3\n" +
		"\xff\xfe sk-secret4\n" +
		"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"ok\":true}}"
	s2c := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"your key sk-secret2\"}]}}\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"name?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"password\":{\"type\":\"string\"}}}}}\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n"
	// With value rules every line goes through the Redactor; with key
	// rules only, the capture writer lets through the JSON frames whose
	// member names the Redactor's NameFilter does not select.
	tests := []struct {
		name    string
		args    []string
		opts    redact.Options
		absent  []string
		changed int
	}{{
		name:    "all rules",
		args:    []string{"--redact-secrets", "--redact-answers", "--redact-value", `sk-secret[0-9]+`},
		opts:    redact.Options{Secrets: true, Answers: true, Values: []*regexp.Regexp{regexp.MustCompile(`sk-secret[0-9]+`)}},
		absent:  []string{"sk-secret", "t1", "Ann Typed", "pw1"},
		changed: 7,
	}, {
		name:    "keys only",
		args:    []string{"--redact-secrets", "--redact-answers"},
		opts:    redact.Options{Secrets: true, Answers: true},
		absent:  []string{"sk-secret1", "sk-secret9", "t1", "Ann Typed", "pw1"},
		changed: 4,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()

			dir := t.TempDir()
			send := filepath.Join(dir, "send")
			if err := os.WriteFile(send, []byte(s2c), 0o600); err != nil {
				t.Fatal(err)
			}
			run := func(name string, extra ...string) string {
				got := filepath.Join(dir, name+".received")
				capt := filepath.Join(dir, name+".jsonl")
				argv := append(append([]string{"--capture", capt}, extra...),
					"--", "env", "API_TOKEN=sk-secret9", bins.fastserver, "-record", got, "-send", send, "-stderr", "boot: key=sk-secret5")
				cmd := exec.Command(bins.mcptrail, argv...)
				cmd.Dir = dir // no .mcptrail.toml here
				cmd.Stdin = strings.NewReader(c2s)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("mcptrail: %v\nstderr: %s", err, stderr.Bytes())
				}
				if !bytes.Equal(stdout.Bytes(), []byte(s2c)) {
					t.Errorf("%s: client received: %s", name, firstDiff(stdout.Bytes(), []byte(s2c)))
				}
				received, err := os.ReadFile(got)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(received, []byte(c2s)) {
					t.Errorf("%s: server received: %s", name, firstDiff(received, []byte(c2s)))
				}
				if !strings.Contains(stderr.String(), "sk-secret5") {
					t.Errorf("%s: the server's stderr was not relayed as is: %q", name, stderr.String())
				}
				return capt
			}
			redacted := run("redacted", tc.args...)
			plain := run("plain")

			data, err := os.ReadFile(redacted)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range tc.absent {
				if bytes.Contains(data, []byte(secret)) {
					t.Errorf("the redacted capture holds %q", secret)
				}
			}
			h, recs, _ := readCapture(t, redacted)
			if !h.Redacted || !slicesContain(h.Command, "API_TOKEN=[REDACTED]") {
				t.Errorf("header: redacted=%v command=%q", h.Redacted, h.Command)
			}
			_, plainRecs, _ := readCapture(t, plain)

			// Redaction on read of the plain capture gives the same records.
			red, err := redact.New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			type rec struct {
				Type     capture.Type
				Dir      capture.Dir
				Size     int
				Msg      string
				Raw      string
				Text     string
				B64      []byte
				Redacted bool
			}
			view := func(rs []capture.Record, red redact.Redactor) []rec {
				var out []rec
				for _, r := range rs {
					if r.Type != capture.TypeFrame && r.Type != capture.TypeStderr {
						continue
					}
					if red != nil {
						red.Record(&r)
					}
					out = append(out, rec{r.Type, r.Dir, r.Size, string(r.Msg), r.Raw, r.Text, r.B64, r.Redacted})
				}
				// The server writes while it reads, so the two runs interleave the
				// streams differently: compare each stream in its own order.
				slices.SortStableFunc(out, func(a, b rec) int {
					return strings.Compare(string(a.Type)+string(a.Dir), string(b.Type)+string(b.Dir))
				})
				return out
			}
			got, want := view(recs, nil), view(plainRecs, red)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("redacted on write vs on read (-read +write)\n%s", diff)
			}
			var sizes, changed int
			for _, r := range got {
				if r.Type == capture.TypeFrame {
					sizes += r.Size + 1
				}
				if r.Redacted {
					changed++
				}
				if r.Msg != "" && !jsontext.Value(r.Msg).IsValid(jsontext.AllowDuplicateNames(true)) {
					t.Errorf("msg is not JSON: %s", r.Msg)
				}
			}
			if want := len(c2s) + 1 + len(s2c); sizes != want {
				t.Errorf("frame sizes sum to %d, want the %d bytes relayed", sizes, want)
			}
			if changed != tc.changed {
				t.Errorf("%d records marked redacted, want %d: %+v", changed, tc.changed, got)
			}

		})
	}
}

func slicesContain(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
