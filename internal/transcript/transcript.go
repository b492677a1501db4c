// Package transcript reads scripted MCP conversations (the wire transcript
// format of shared/fixtures/README.md) and plays either side of one: a
// scripted server that checks every client frame byte for byte and answers
// with the transcript's server frames, and a scripted client that does the
// reverse. It sits beside the data flow, not in it: tests, the corpus and
// the demo use it to drive the real tap. Nothing in it correlates.
//
// A Transcript is immutable once parsed and safe for concurrent use; Serve
// and Play each drive one conversation and must not share their streams.
package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json"
)

// Dir is who sends a frame.
type Dir string

// The directions. Stderr frames are written by the scripted server to its
// stderr; the client never sees them.
const (
	C2S    Dir = "c2s"
	S2C    Dir = "s2c"
	Stderr Dir = "stderr"
)

// Frame is one scripted frame.
type Frame struct {
	Dir Dir
	// AfterMS is how long the sender waits, after the previous frame of the
	// transcript was sent or received, before sending this one.
	AfterMS float64
	// Raw is the frame's exact bytes without the newline.
	Raw []byte
	// NoEOL marks a final frame written without a newline; the sender
	// closes its stream after it. Only the last frame of a direction may
	// carry it.
	NoEOL bool
	// Line is the frame's 1-based line in the transcript file.
	Line int
}

// Transcript is a parsed conversation.
type Transcript struct {
	Frames []Frame
}

// line is the on-disk shape of one transcript line.
type line struct {
	Dir     Dir     `json:"dir"`
	AfterMS float64 `json:"after_ms"`
	Raw     *string `json:"raw"`
	RawB64  []byte  `json:"raw_b64"`
	NoEOL   bool    `json:"noeol"`
}

// Load reads the transcript at path.
func Load(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	defer f.Close()
	t, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("reading transcript %s: %w", path, err)
	}
	return t, nil
}

// Parse reads a transcript: one JSON object per line, blank lines ignored.
// Each object has dir, after_ms and exactly one of raw (a JSON string) and
// raw_b64 (base64, for bytes that are not UTF-8); noeol is optional.
func Parse(r io.Reader) (*Transcript, error) {
	br := bufio.NewReader(r)
	t := &Transcript{}
	for n := 1; ; n++ {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			f, perr := parseLine(b, n)
			if perr != nil {
				return nil, perr
			}
			t.Frames = append(t.Frames, f)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading line %d: %w", n, err)
		}
	}
	if err := t.validate(); err != nil {
		return nil, err
	}
	return t, nil
}

func parseLine(b []byte, n int) (Frame, error) {
	var l line
	if err := json.Unmarshal(b, &l, json.RejectUnknownMembers(true)); err != nil {
		return Frame{}, fmt.Errorf("line %d: %w", n, err)
	}
	f := Frame{Dir: l.Dir, AfterMS: l.AfterMS, NoEOL: l.NoEOL, Line: n}
	switch {
	case l.Raw != nil && l.RawB64 != nil:
		return Frame{}, fmt.Errorf("line %d: both raw and raw_b64", n)
	case l.Raw != nil:
		f.Raw = []byte(*l.Raw)
	case l.RawB64 != nil:
		f.Raw = l.RawB64
	default:
		return Frame{}, fmt.Errorf("line %d: neither raw nor raw_b64", n)
	}
	switch {
	case f.Dir != C2S && f.Dir != S2C && f.Dir != Stderr:
		return Frame{}, fmt.Errorf("line %d: dir %q is not c2s, s2c or stderr", n, f.Dir)
	case f.AfterMS < 0:
		return Frame{}, fmt.Errorf("line %d: negative after_ms", n)
	case bytes.IndexByte(f.Raw, '\n') >= 0:
		return Frame{}, fmt.Errorf("line %d: raw contains a newline, which would split the frame", n)
	}
	return f, nil
}

// validate checks that noeol appears only on the last frame of its
// direction.
func (t *Transcript) validate() error {
	last := map[Dir]int{}
	for i, f := range t.Frames {
		last[f.Dir] = i
	}
	for i, f := range t.Frames {
		if f.NoEOL && last[f.Dir] != i {
			return fmt.Errorf("line %d: noeol on a frame that is not the last %s frame", f.Line, f.Dir)
		}
	}
	return nil
}

// OffsetsMS returns, for each frame, the sum of after_ms up to and
// including it: the frame's time since the start of an unscaled run.
func (t *Transcript) OffsetsMS() []float64 {
	out := make([]float64, len(t.Frames))
	var sum float64
	for i, f := range t.Frames {
		sum += f.AfterMS
		out[i] = sum
	}
	return out
}
