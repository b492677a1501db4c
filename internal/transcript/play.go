package transcript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Options tune a scripted peer. A nil *Options means the zero value.
type Options struct {
	// Scale multiplies every after_ms. Zero means no delays at all (the
	// order of the transcript is still kept); 1 is real time.
	Scale float64
}

func (o *Options) scale() float64 {
	if o == nil {
		return 0
	}
	return o.Scale
}

// MismatchError reports a received frame that differs from the transcript.
type MismatchError struct {
	Frame Frame
	// Got is what arrived (without its newline); GotEOL reports whether a
	// newline ended it. A nil Got with Missing set means the stream ended
	// first.
	Got     []byte
	GotEOL  bool
	Missing bool
}

func (e *MismatchError) Error() string {
	if e.Missing {
		return fmt.Sprintf("transcript line %d: expected %s frame %s, the stream ended", e.Frame.Line, e.Frame.Dir, preview(e.Frame.Raw))
	}
	if bytes.Equal(e.Got, e.Frame.Raw) {
		return fmt.Sprintf("transcript line %d: %s frame arrived with newline=%t, want newline=%t", e.Frame.Line, e.Frame.Dir, e.GotEOL, !e.Frame.NoEOL)
	}
	return fmt.Sprintf("transcript line %d: %s frame differs\n  want %s\n  got  %s", e.Frame.Line, e.Frame.Dir, preview(e.Frame.Raw), preview(e.Got))
}

// ErrExtraInput means bytes arrived after the transcript's last frame.
var ErrExtraInput = errors.New("unexpected bytes after the transcript ended")

func preview(b []byte) string {
	const max = 200
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return strconv.Quote(string(b))
}

// expect reads the next frame from br and compares it with f. A frame
// without a newline is read by its length, since the stream's end may only
// come after this side has finished (a newline after it shows up as extra
// input when the stream is drained).
func expect(br *bufio.Reader, f Frame) error {
	if f.NoEOL {
		got := make([]byte, len(f.Raw))
		n, err := io.ReadFull(br, got)
		got = got[:n]
		if i := bytes.IndexByte(got, '\n'); i >= 0 {
			return &MismatchError{Frame: f, Got: got[:i], GotEOL: true}
		}
		if err != nil && n == 0 {
			return &MismatchError{Frame: f, Missing: true}
		}
		if !bytes.Equal(got, f.Raw) {
			return &MismatchError{Frame: f, Got: got}
		}
		return nil
	}
	got, err := br.ReadBytes('\n')
	eol := err == nil
	if eol {
		got = got[:len(got)-1]
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("reading %s frame of transcript line %d: %w", f.Dir, f.Line, err)
	}
	if !eol && len(got) == 0 {
		return &MismatchError{Frame: f, Missing: true}
	}
	if !bytes.Equal(got, f.Raw) || eol == f.NoEOL {
		return &MismatchError{Frame: f, Got: got, GotEOL: eol}
	}
	return nil
}

// send writes f (with its newline unless NoEOL) in a single Write.
func send(w io.Writer, f Frame) error {
	b := f.Raw
	if !f.NoEOL {
		b = append(append(make([]byte, 0, len(f.Raw)+1), f.Raw...), '\n')
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing %s frame of transcript line %d: %w", f.Dir, f.Line, err)
	}
	return nil
}

// drain reads r to its end and reports ErrExtraInput if anything arrives.
func drain(r io.Reader) error {
	n, err := io.Copy(io.Discard, r)
	if err != nil {
		return fmt.Errorf("waiting for the end of input: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("%w (%d bytes)", ErrExtraInput, n)
	}
	return nil
}

func wait(ctx context.Context, f Frame, scale float64) error {
	d := time.Duration(f.AfterMS * scale * float64(time.Millisecond))
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ServerStreams are the scripted server's ends: it reads In (its stdin) and
// writes Out (its stdout) and ErrOut (its stderr). Out is closed after a
// final frame without a newline when it is an io.Closer, so the client sees
// the end of the stream.
type ServerStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Serve plays the server side of t: it waits for each c2s frame and checks
// it byte for byte, and writes each s2c (and stderr) frame after its delay.
// After the last frame it reads In to its end, which must bring nothing.
func (t *Transcript) Serve(ctx context.Context, s ServerStreams, opts *Options) error {
	br := bufio.NewReaderSize(s.In, 64<<10)
	for _, f := range t.Frames {
		var err error
		switch f.Dir {
		case C2S:
			err = expect(br, f)
		case S2C, Stderr:
			w := s.Out
			if f.Dir == Stderr {
				w = s.ErrOut
			}
			if err = wait(ctx, f, opts.scale()); err == nil {
				err = send(w, f)
			}
			if c, ok := w.(io.Closer); ok && err == nil && f.NoEOL && f.Dir == S2C {
				err = c.Close()
			}
		}
		if err != nil {
			return err
		}
	}
	return drain(br)
}

// Play plays the client side of t: it writes each c2s frame to w after its
// delay and checks each s2c frame read from r byte for byte. Each side waits
// for the frames the transcript puts before its next send, so the order is
// kept even with no delays. After the script it closes w and reads r to its
// end, which must bring nothing more.
func (t *Transcript) Play(ctx context.Context, w io.WriteCloser, r io.Reader, opts *Options) error {
	br := bufio.NewReaderSize(r, 64<<10)
	closed := false
	defer func() {
		if !closed {
			w.Close()
		}
	}()
	for _, f := range t.Frames {
		var err error
		switch f.Dir {
		case S2C:
			err = expect(br, f)
		case C2S:
			if err = wait(ctx, f, opts.scale()); err == nil {
				err = send(w, f)
			}
			if err == nil && f.NoEOL {
				closed, err = true, w.Close()
			}
		}
		if err != nil {
			return err
		}
	}
	if !closed {
		closed = true
		if err := w.Close(); err != nil {
			return fmt.Errorf("closing the client's output: %w", err)
		}
	}
	return drain(br)
}
