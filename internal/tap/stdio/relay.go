package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// bufSize is the relay read size: large enough that a burst of frames or a
// long line crosses in few reads.
const bufSize = 256 << 10

// relayIn copies the client's bytes to the server's stdin. At the client's
// EOF it closes the server's stdin. If the server stops reading, the
// client's bytes are still captured.
func (t *tap) relayIn(src io.Reader, dst *os.File) {
	buf := make([]byte, bufSize)
	broken := false
	for {
		n, err := src.Read(buf)
		if n > 0 {
			relay, wake := t.take(streamC2S, buf[:n])
			if !relay {
				return
			}
			if !broken {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					broken = true
					t.relayError("writing to the server's stdin", werr)
				}
			}
			if wake {
				t.signal()
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.relayError("reading from the client", err)
			}
			t.eof(streamC2S)
			if errors.Is(err, io.EOF) {
				t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteClientClosed})
			}
			_ = dst.Close()
			return
		}
	}
}

// relayOut copies the server's stdout (or stderr) to dst until EOF. If dst
// fails, the server's output is still drained and captured.
func (t *tap) relayOut(src *os.File, dst io.Writer, s stream) {
	buf := make([]byte, bufSize)
	broken := false
	for {
		n, err := src.Read(buf)
		if n > 0 {
			relay, wake := t.take(s, buf[:n])
			if !relay {
				return
			}
			if !broken {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					broken = true
					t.relayError("writing the server's "+streamName(s)+" to the client", werr)
				}
			}
			if wake {
				t.signal()
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				t.relayError("reading the server's "+streamName(s), err)
			}
			t.eof(s)
			return
		}
	}
}

func streamName(s stream) string {
	if s == streamStderr {
		return "stderr"
	}
	return "stdout"
}

func (t *tap) relayError(what string, err error) {
	t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteRelayError, Text: fmt.Sprintf("%s: %v", what, err)})
}
