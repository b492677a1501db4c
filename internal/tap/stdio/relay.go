package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// bufSize is the size of a relay's read buffer, the slab its reads fill
// (at least minRoom at a time): large enough that a burst of frames or a
// long line crosses in few reads.
const bufSize = 256 << 10

// relayIn copies the client's bytes to the server's stdin. At the client's
// EOF it closes the server's stdin and starts watching for the client to
// go away altogether (l.watch). If the server stops reading, the client's
// bytes are still captured.
func (t *tap) relayIn(src io.Reader, dst *os.File, l *life) {
	rb := t.readBuf()
	broken := false
	for {
		n, err := src.Read(rb.room())
		if n > 0 {
			relay, wake, kept := t.take(streamC2S, rb, n)
			if !relay {
				return
			}
			if !broken {
				if _, werr := dst.Write(rb.room()[:n]); werr != nil {
					broken = true
					t.relayError("writing to the server's stdin", werr)
				}
			}
			if wake {
				t.signal()
			}
			rb = t.next(rb, n, kept)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.relayError("reading from the client", err)
			}
			t.eof(streamC2S)
			l.stdinClosed()
			if errors.Is(err, io.EOF) {
				t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteClientClosed})
			}
			_ = dst.Close()
			go l.watch(t.stdout)
			return
		}
	}
}

// relayOut copies the server's stdout (or stderr) to dst until EOF. If
// writing stderr fails, the server's stderr is still drained and captured.
// If writing stdout fails, the client is gone: the session ends (l), and
// what the server writes from then on is read, counted and discarded,
// neither relayed nor recorded.
func (t *tap) relayOut(src *os.File, dst io.Writer, s stream, l *life) {
	rb := t.readBuf()
	broken := false
	var discarded int64
	for {
		n, err := src.Read(rb.room())
		switch {
		case n == 0:
		case s == streamS2C && l.gone.Load():
			discarded += int64(n)
		default:
			relay, wake, kept := t.take(s, rb, n)
			if !relay {
				return
			}
			if !broken {
				if w, werr := dst.Write(rb.room()[:n]); werr != nil {
					broken = true
					t.writeFailed(s, n-w, werr, l)
				}
			}
			if wake {
				t.signal()
			}
			rb = t.next(rb, n, kept)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				t.relayError("reading the server's "+streamName(s), err)
			}
			t.eof(s)
			if discarded > 0 {
				t.note(&capture.Record{Type: capture.TypeNote, Note: capture.NoteDiscarded, LostBytes: discarded,
					Text: fmt.Sprintf("%d bytes the server wrote after the client went away were neither relayed nor recorded", discarded)})
			}
			return
		}
	}
}

// writeFailed handles a failed write of a chunk to the client: on stderr a
// relay error, unless the client closed the pipe it read our stderr from
// (EPIPE: mcp-go's stdio client does so before we exit), which only stops
// the relay, the lines being captured all the same; on stdout the client
// is gone, and lost of the chunk's bytes, already recorded, did not reach it.
func (t *tap) writeFailed(s stream, lost int, err error, l *life) {
	if s != streamS2C {
		if !brokenPipe(err) {
			t.relayError("writing the server's "+streamName(s)+" to the client", err)
		}
		return
	}
	l.clientGone(fmt.Sprintf("writing the server's stdout to the client: %v (at least the last %d bytes recorded before this note did not reach it)", err, lost))
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
