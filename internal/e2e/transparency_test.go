package e2e_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// bigLine is a 5 MB JSON frame.
func bigLine() string {
	return `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 5<<20) + `"}]}}`
}

func TestByteTransparency(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		c2s, s2c string
	}{
		{
			name: "crlf frames",
			c2s:  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n",
			s2c:  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n",
		},
		{
			name: "invalid utf-8",
			c2s:  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"s\":\"\xff\xfe\"}}\n\xc3\x28 raw\n",
			s2c:  "\x80\x81\x82\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"\xed\xa0\x80\"}}\n",
		},
		{
			name: "5 MB line",
			c2s:  "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"big\"}}\n",
			s2c:  bigLine() + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n",
		},
		{
			name: "5 MB line upstream",
			c2s:  bigLine() + "\n",
			s2c:  "{}\n",
		},
		{
			name: "whitespace inside json",
			c2s:  "  {  \"jsonrpc\" : \"2.0\" ,\t\"id\" : 1 , \"method\" : \"ping\"  }  \n\t[ {\"jsonrpc\":\"2.0\",\"method\":\"a\"} ]\n",
			s2c:  "{\n}\n { \"jsonrpc\":\"2.0\", \"id\":1, \"result\":{ } }\t\n",
		},
		{
			name: "final frame without newline",
			c2s:  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
			s2c:  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"res",
		},
		{
			name: "empty lines and non-json",
			c2s:  "\n\nhello world\n\n",
			s2c:  "Starting server...\n\n{\"jsonrpc\":\"2.0\"}\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			send := filepath.Join(dir, "send")
			got := filepath.Join(dir, "received")
			capt := filepath.Join(dir, "capture.jsonl")
			if err := os.WriteFile(send, []byte(tc.s2c), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bins.mcptrail, "--capture", capt, "--", bins.fastserver, "-record", got, "-send", send)
			cmd.Stdin = strings.NewReader(tc.c2s)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("mcptrail: %v\nstderr: %s", err, stderr.Bytes())
			}
			if !bytes.Equal(stdout.Bytes(), []byte(tc.s2c)) {
				t.Errorf("client received: %s", firstDiff(stdout.Bytes(), []byte(tc.s2c)))
			}
			received, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(received, []byte(tc.c2s)) {
				t.Errorf("server received: %s", firstDiff(received, []byte(tc.c2s)))
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr = %q, want nothing", stderr.Bytes())
			}
			_, recs, dmg := readCapture(t, capt)
			if dmg.Torn || dmg.Corrupt != 0 {
				t.Errorf("capture damage = %+v", dmg)
			}
			frames := framesByDir(t, recs)
			for dir, want := range map[capture.Dir]string{capture.C2S: tc.c2s, capture.S2C: tc.s2c} {
				if !bytes.Equal(frames[dir], []byte(want)) {
					t.Errorf("captured %s frames: %s", dir, firstDiff(frames[dir], []byte(want)))
				}
			}
		})
	}
}
