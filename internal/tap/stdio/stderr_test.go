//go:build unix

package stdio_test

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
)

// TestRunStderrReaderGone runs a real server that writes stderr lines and
// exits, through the tap, with the client's stderr pipe already closed
// (mcp-go's stdio client closes it before the proxy exits). The stderr
// relay fails with EPIPE; that is no relay error, since nothing of the
// protocol was lost, and every stderr line is still in the capture.
func TestRunStderrReaderGone(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	pr, pw := io.Pipe()
	defer pw.Close()
	res, recs := runWithin(t, 20*time.Second, &stdio.Options{
		Command: []string{"sh", "-c", "echo one >&2; echo two >&2; echo three >&2; printf '{}\\n'; exit 0"},
		Stdin:   pr, Stdout: io.Discard, Stderr: w,
	})
	if res.ExitCode != 0 {
		t.Errorf("Result %+v, want exit 0", res)
	}
	var lines []string
	for _, r := range recs {
		if r.Type == capture.TypeStderr {
			lines = append(lines, string(r.Bytes()))
		}
		if r.Type == capture.TypeNote && r.Note == capture.NoteRelayError {
			t.Errorf("relay-error note %q", r.Text)
		}
	}
	if diff := cmp.Diff("one two three", strings.Join(lines, " ")); diff != "" {
		t.Errorf("stderr records (-want +got):\n%s", diff)
	}
}
