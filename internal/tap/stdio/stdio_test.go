package stdio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// readCapture decodes every record of a capture.
func readCapture(t *testing.T, b []byte) (capture.Record, []capture.Record, capture.Damage) {
	t.Helper()
	h, recs, dmg, err := capture.ReadAll(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("reading capture: %v\n%s", err, b)
	}
	return *h, recs, dmg
}

// summary is the comparable shape of a record.
type summary struct {
	Type   capture.Type
	Seq    uint64
	Dir    capture.Dir
	Bytes  string
	NoEOL  bool
	Note   string
	Exit   int
	Signal string
}

func summarize(recs []capture.Record) []summary {
	var out []summary
	for _, r := range recs {
		s := summary{Type: r.Type, Seq: r.Seq, Dir: r.Dir, NoEOL: r.NoEOL, Note: r.Note, Signal: r.Signal}
		if r.Type == capture.TypeFrame || r.Type == capture.TypeStderr {
			s.Bytes = string(r.Bytes())
		}
		if r.Exit != nil {
			s.Exit = *r.Exit
		}
		out = append(out, s)
	}
	return out
}

func TestRunEcho(t *testing.T) {
	t.Parallel()
	in := "{\"id\":1}\r\n  {\"a\" : 2}  \nnot json\n\xff\xfe\n{\"last\":true}"
	var out, capt bytes.Buffer
	res, err := stdio.Run(context.Background(), &stdio.Options{
		Command: peer(t, "cat"),
		Stdin:   strings.NewReader(in),
		Stdout:  &out,
		Capture: &capt,
		Header:  capture.Record{SessionID: "s1", Label: "echo", ToolVersion: "test"},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.String() != in {
		t.Errorf("stdout = %q, want %q", out.String(), in)
	}
	if diff := cmp.Diff(&stdio.Result{Frames: 10, Bytes: int64(2 * len(in))}, res); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
	h, recs, dmg := readCapture(t, capt.Bytes())
	if h.SessionID != "s1" || h.Label != "echo" || h.Transport != "stdio" || h.Format != capture.FormatVersion || !cmp.Equal(h.Command, peer(t, "cat")) {
		t.Errorf("header = %+v", h)
	}
	if dmg.Torn || dmg.Corrupt != 0 {
		t.Errorf("damage = %+v", dmg)
	}
	// Per direction, the frames hold the lines exactly; seqs are 1..10 in
	// file order and each echo comes after the line it echoes.
	lines := []string{"{\"id\":1}\r", "  {\"a\" : 2}  ", "not json", "\xff\xfe", "{\"last\":true}"}
	var got = map[capture.Dir][]string{}
	var seq uint64
	for _, r := range recs {
		if r.Type != capture.TypeFrame {
			continue
		}
		seq++
		if r.Seq != seq {
			t.Errorf("frame %d has seq %d", seq, r.Seq)
		}
		got[r.Dir] = append(got[r.Dir], string(r.Bytes()))
		if r.NoEOL != (string(r.Bytes()) == "{\"last\":true}") {
			t.Errorf("frame %q NoEOL = %v", r.Bytes(), r.NoEOL)
		}
	}
	for _, d := range []capture.Dir{capture.C2S, capture.S2C} {
		if diff := cmp.Diff(lines, got[d]); diff != "" {
			t.Errorf("%s frames (-want +got):\n%s", d, diff)
		}
	}
	tail := summarize(recs[len(recs)-3:])
	want := []summary{
		{Type: capture.TypeNote, Note: capture.NoteClientClosed},
		{Type: capture.TypeNote, Note: capture.NoteServerExit},
		{Type: capture.TypeEnd},
	}
	// client-closed may come before the last s2c frames; find it anywhere.
	if diff := cmp.Diff(want[1:], tail[1:]); diff != "" {
		t.Errorf("last records (-want +got):\n%s", diff)
	}
	if !hasNote(recs, capture.NoteClientClosed) {
		t.Error("no client-closed note")
	}
}

func hasNote(recs []capture.Record, note string) bool {
	for _, r := range recs {
		if r.Type == capture.TypeNote && r.Note == note {
			return true
		}
	}
	return false
}

func TestRunExitAndStderr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		ops      []string // the peer's; nil: sh -c script, on Unix only
		script   string
		want     stdio.Result
		wantRecs []summary
		stderr   string
	}{
		{
			name:   "exit code",
			ops:    []string{`err:oops\n`, "out:half", "exit:3"},
			want:   stdio.Result{ExitCode: 3, Frames: 1, Bytes: 4},
			stderr: "oops\n",
			wantRecs: []summary{
				{Type: capture.TypeStderr, Bytes: "oops"},
				{Type: capture.TypeFrame, Seq: 1, Dir: capture.S2C, Bytes: "half", NoEOL: true},
				{Type: capture.TypeNote, Note: capture.NoteServerExit, Exit: 3},
				{Type: capture.TypeEnd},
			},
		},
		{
			name:   "killed by signal",
			script: "printf 'err no newline' >&2; kill -TERM $$",
			want:   stdio.Result{ExitCode: 143, Signal: "SIGTERM"},
			stderr: "err no newline",
			wantRecs: []summary{
				{Type: capture.TypeStderr, Bytes: "err no newline", NoEOL: true},
				{Type: capture.TypeNote, Note: capture.NoteServerExit, Signal: "SIGTERM"},
				{Type: capture.TypeEnd},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			command := []string{"sh", "-c", tc.script}
			if tc.ops != nil {
				command = peer(t, tc.ops...)
			} else if runtime.GOOS == "windows" {
				t.Skip("a Windows process is not killed by a signal")
			}
			var out, errb, capt bytes.Buffer
			// The client never closes stdin: Run must return when the
			// server exits.
			pr, pw := io.Pipe()
			defer pw.Close()
			res, err := stdio.Run(context.Background(), &stdio.Options{
				Command: command,
				Stdin:   pr, Stdout: &out, Stderr: &errb, Capture: &capt,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if diff := cmp.Diff(&tc.want, res); diff != "" {
				t.Errorf("Result (-want +got):\n%s", diff)
			}
			if errb.String() != tc.stderr {
				t.Errorf("stderr = %q, want %q", errb.String(), tc.stderr)
			}
			// stdout and stderr are separate pipes: compare each stream's
			// records in order, not their interleaving.
			_, recs, _ := readCapture(t, capt.Bytes())
			byStream := func(ss []summary) (a, b []summary) {
				for _, s := range ss {
					if s.Type == capture.TypeStderr {
						a = append(a, s)
					} else {
						b = append(b, s)
					}
				}
				return a, b
			}
			we, wo := byStream(tc.wantRecs)
			ge, gotOther := byStream(summarize(recs))
			if diff := cmp.Diff(we, ge); diff != "" {
				t.Errorf("stderr records (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wo, gotOther); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunStartFailed(t *testing.T) {
	t.Parallel()
	var capt bytes.Buffer
	res, err := stdio.Run(context.Background(), &stdio.Options{
		Command: []string{"/nonexistent/mcp-server"},
		Capture: &capt,
	})
	if err == nil || res != nil {
		t.Fatalf("Run = %v, %v; want nil result and an error", res, err)
	}
	if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, exec.ErrNotFound) { // Windows: not found
		t.Errorf("error %v is not ErrNotExist", err)
	}
	_, recs, _ := readCapture(t, capt.Bytes())
	want := []summary{{Type: capture.TypeNote, Note: capture.NoteStartFailed}, {Type: capture.TypeEnd}}
	if diff := cmp.Diff(want, summarize(recs)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestRunNoCommand(t *testing.T) {
	t.Parallel()
	if _, err := stdio.Run(context.Background(), &stdio.Options{}); !errors.Is(err, stdio.ErrNoCommand) {
		t.Errorf("Run = %v, want ErrNoCommand", err)
	}
}

func TestRunSignals(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Windows cannot pass a signal on to a console process; TestRunContextCancel covers the kill")
	}
	sigs := make(chan os.Signal, 1)
	pr, pw := io.Pipe()
	defer pw.Close()
	var capt, out bytes.Buffer
	go func() {
		// Wait until the server is running (it has read our first line).
		_, _ = pw.Write([]byte("go\n"))
		sigs <- syscall.SIGTERM
	}()
	res, err := stdio.Run(context.Background(), &stdio.Options{
		Command: peer(t, "read", "sleep:30s"),
		Stdin:   pr, Stdout: &out, Capture: &capt, Signals: sigs,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.ExitCode != 143 || res.Signal != "SIGTERM" {
		t.Errorf("Result = %+v, want 143 SIGTERM", res)
	}
	_, recs, _ := readCapture(t, capt.Bytes())
	var sigNotes []string
	for _, r := range recs {
		if r.Note == capture.NoteSignal {
			sigNotes = append(sigNotes, r.Signal)
		}
	}
	if diff := cmp.Diff([]string{"SIGTERM"}, sigNotes); diff != "" {
		t.Errorf("signal notes (-want +got):\n%s", diff)
	}
}

func TestRunCaptureFailureKeepsRelaying(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for range 5000 {
		in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}` + "\n")
	}
	for _, recovers := range []bool{false, true} {
		fw := &testbin.FullDisk{Limit: 100_000}
		if recovers {
			fw.Free()
		}
		var out bytes.Buffer
		res, err := stdio.Run(context.Background(), &stdio.Options{
			Command: peer(t, "cat"), Stdin: strings.NewReader(in.String()), Stdout: &out, Capture: fw,
		})
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("recovers=%v: Run error = %v, want ENOSPC", recovers, err)
		}
		if out.String() != in.String() {
			t.Errorf("recovers=%v: forwarded %d bytes, want %d", recovers, out.Len(), in.Len())
		}
		if res == nil || res.Frames != 10000 {
			t.Fatalf("recovers=%v: Result = %+v", recovers, res)
		}
		_, recs, dmg := readCapture(t, fw.Bytes())
		var frames, lost int64
		for _, r := range recs {
			switch {
			case r.Type == capture.TypeFrame:
				frames++
			case r.Note == capture.NoteCaptureGap:
				lost = r.LostFrame
			}
		}
		if !recovers {
			if !dmg.Torn || frames == 0 {
				t.Errorf("damage = %+v, frames = %d; want a torn tail after some frames", dmg, frames)
			}
			continue
		}
		if frames+lost != 10000 || lost == 0 {
			t.Errorf("recorded %d + lost %d frames, want 10000 in all", frames, lost)
		}
		if dmg.Torn || dmg.Corrupt > 1 {
			t.Errorf("damage = %+v", dmg)
		}
		if last := recs[len(recs)-1]; last.Type != capture.TypeEnd {
			t.Errorf("last record = %+v, want end", last)
		}
	}
}

func TestRunContextCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	res, err := stdio.Run(ctx, &stdio.Options{Command: peer(t, "sleep:30s"), Stdin: pr})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Windows ends the server's job with status 1; no signal is involved.
	want := stdio.Result{ExitCode: 137, Signal: "SIGKILL"}
	if runtime.GOOS == "windows" {
		want = stdio.Result{ExitCode: 1}
	}
	if res.Signal != want.Signal || res.ExitCode != want.ExitCode {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
}

func TestRunCaptureUnwritableFromStart(t *testing.T) {
	t.Parallel()
	fw := &testbin.FullDisk{}
	var out bytes.Buffer
	res, err := stdio.Run(context.Background(), &stdio.Options{
		Command: append(peer(t, "cat", "exit:1"), "arg-\xff"), Stdin: strings.NewReader("a\nb\n"), Stdout: &out, Capture: fw,
	})
	if !errors.Is(err, syscall.ENOSPC) || res == nil {
		t.Fatalf("Run = %+v, %v; want a result and ENOSPC", res, err)
	}
	if out.String() != "a\nb\n" {
		t.Errorf("stdout %q, want the echo", out.String())
	}
	if res.ExitCode != 1 || res.Frames != 4 {
		t.Errorf("Result = %+v, want exit 1 after relaying 4 frames", res)
	}
}

func TestRunGrandchildHoldsStdout(t *testing.T) {
	t.Parallel()
	var out, capt bytes.Buffer
	start := time.Now()
	res, err := stdio.Run(context.Background(), &stdio.Options{
		Command: peer(t, "out:hi\\n", "child:10s", "exit:4"),
		Stdout:  &out, Capture: &capt,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(start); d > 8*time.Second { // the grandchild holds the pipe for 10 s
		t.Errorf("Run took %v; it should give up on the grandchild's pipe", d)
	}
	if res.ExitCode != 4 || out.String() != "hi\n" {
		t.Errorf("Result %+v, stdout %q", res, out.String())
	}
	_, recs, _ := readCapture(t, capt.Bytes())
	if !hasNote(recs, capture.NoteRelayError) || !hasNote(recs, capture.NoteServerExit) {
		t.Errorf("notes missing in %+v", summarize(recs))
	}
}

// TestRunBurstKeepsEveryByte sends 8 MiB of distinct lines through a real
// cat at once, so both relays read far more than keptAbove at a time and
// queue their read buffers themselves while forwarding from them. Every
// byte must reach each side unchanged and every line be captured as sent,
// in order: a read buffer reused before both the forward and the capture
// were done with it would show here as altered or repeated lines.
func TestRunBurstKeepsEveryByte(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	var lines []string
	for i := 0; in.Len() < 8<<20; i++ {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"pad":"%s"}}`, i, strings.Repeat(string(rune('a'+i%26)), i%700))
		lines = append(lines, line)
		in.WriteString(line + "\n")
	}
	var out, capt bytes.Buffer
	res, err := stdio.Run(context.Background(), &stdio.Options{
		Command: peer(t, "cat"), Stdin: strings.NewReader(in.String()), Stdout: &out, Capture: &capt,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if out.String() != in.String() {
		t.Fatalf("forwarded %d bytes that differ from the %d sent", out.Len(), in.Len())
	}
	if res.Frames != int64(2*len(lines)) {
		t.Errorf("Result.Frames = %d, want %d", res.Frames, 2*len(lines))
	}
	_, recs, dmg := readCapture(t, capt.Bytes())
	if dmg.Torn || dmg.Corrupt != 0 {
		t.Errorf("damage = %+v", dmg)
	}
	got := map[capture.Dir][]string{}
	var seq uint64
	for _, r := range recs {
		if r.Type != capture.TypeFrame {
			continue
		}
		if seq++; r.Seq != seq {
			t.Fatalf("frame %d has seq %d", seq, r.Seq)
		}
		got[r.Dir] = append(got[r.Dir], string(r.Bytes()))
	}
	for _, d := range []capture.Dir{capture.C2S, capture.S2C} {
		if len(got[d]) != len(lines) {
			t.Errorf("%s: %d frames captured, want %d", d, len(got[d]), len(lines))
			continue
		}
		for i, l := range lines {
			if got[d][i] != l {
				t.Errorf("%s frame %d = %.60q…, want %.60q…", d, i, got[d][i], l)
				break
			}
		}
	}
}
