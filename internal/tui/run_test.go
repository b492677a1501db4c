package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// TestRunOnPipes runs the TUI program end to end on pipes, no terminal:
// the keys are written to its input, the screen read from its output.
// It opens the ledger, then quits with q.
func TestRunOnPipes(t *testing.T) {
	capt := tuitest.Capture(t, "elicit-seed", tuitest.ReadTranscript(t, tuitest.Transcript("elicit-seed")), true)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := Options{Stdin: bytes.NewReader(capt), Source: &source.Options{Rules: rules.Default()},
		Streams: Streams{In: inR, Out: outW}}
	done := make(chan error, 1)
	go func() {
		err := Run(ctx, opts, tea.WithWindowSize(80, 24), tea.WithoutSignalHandler())
		outW.Close()
		done <- err
	}()
	screen := &screenReader{r: outR}
	if err := screen.waitFor("elicit-seed"); err != nil {
		t.Fatalf("waiting for the stream: %v\n%s", err, screen.text())
	}
	if _, err := inW.Write([]byte("l")); err != nil {
		t.Fatal(err)
	}
	if err := screen.waitFor("Elicitation ledger"); err != nil {
		t.Fatalf("waiting for the ledger: %v\n%s", err, screen.text())
	}
	if _, err := inW.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, outR) // the program's last frames
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	inW.Close()
}

// screenReader accumulates what a program draws.
type screenReader struct {
	r   io.Reader
	buf bytes.Buffer
}

// waitFor reads until the output holds s; the read error when the output
// ends first.
func (s *screenReader) waitFor(want string) error {
	p := make([]byte, 4096)
	for !strings.Contains(s.buf.String(), want) {
		n, err := s.r.Read(p)
		s.buf.Write(p[:n])
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *screenReader) text() string { return s.buf.String() }
