// Package htmlexport renders a session as one self-contained HTML report
// (docs/export-html.md): a header, a timeline of the operations, the calls
// table with the TUI's filter language, each call's frames as coloured
// JSON built only when the call is expanded (the frames travel gzipped), the elicitation ledger, the
// authorization flows (when the capture holds any), the findings with their rules' help, the catalog and the per-tool and
// per-method summary. The page needs nothing from the network: its style
// and script are inlined and its data sits in <script type="application/json">
// blocks, escaped so that nothing from the capture can end the block or run.
// It is a view: it reads store frames and the final snapshot and never
// re-parses or correlates.
//
// A Writer is fed every frame the store ingests (Frame is made to be
// store.Options.OnFrame); it spools the frame bodies (in memory up to a
// limit, then in a private temporary file), and Finish writes the page.
// A Writer is not safe for concurrent use.
package htmlexport

import (
	"bufio"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/spool"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Options are the knobs of a Writer; nil means defaults.
type Options struct {
	// SpoolDir is where frame bodies past the in-memory limit are spooled;
	// "" means the system's temporary directory.
	SpoolDir string
	// Version is mcptrail's version, shown at the foot of the page; ""
	// shows none.
	Version string
	// Rules gives each finding's summary and help text; nil means
	// rules.Default().
	Rules *finding.Registry
}

// Writer collects the frame bodies and writes the page on Finish.
type Writer struct {
	w      io.Writer
	opts   Options
	frames *spool.Spool
	fw     *scriptWriter // escapes what goes to frames
	// seqs holds the seq of each spooled frame, in the order spooled;
	// sorted stays true while they ascend (they do in a capture).
	seqs   []uint64
	sorted bool
	// bySeq indexes seqs when they do not ascend (a hand-made capture),
	// built at the first lookup so that lookups stay O(1).
	bySeq map[uint64]int
	buf   []byte
	err   error // the first error spooling a frame
	// auth is the session's authorization flows (SetAuth); nil: none.
	auth *oauth.Auth
}

// SetAuth gives the writer the session's authorization flows, as the
// session loader read them once (session.Session.Auth), for Finish to
// show; without it Finish shows none. a must not change until Finish.
func (hw *Writer) SetAuth(a *oauth.Auth) { hw.auth = a }

// New returns a Writer of one session onto w. The header record h is
// not needed (the snapshot holds the session) and may be nil.
func New(w io.Writer, _ *capture.Record, opts *Options) *Writer {
	hw := &Writer{w: w, sorted: true}
	if opts != nil {
		hw.opts = *opts
	}
	hw.frames = spool.New(hw.opts.SpoolDir, "mcptrail-html", 0)
	hw.fw = newScriptWriter(hw.frames)
	return hw
}

// Close removes the spool's temporary file, if any. It is safe to call
// more than once, and after Finish.
func (hw *Writer) Close() error { return hw.frames.Remove() }

// Frame spools the body of f when it is a call's request or answer (it is
// made to be store.Options.OnFrame): a JSON-RPC message, or the HTTP
// status frame whose error status ended the call (a 401 and its body).
// Other frames are not shown in the report's call details.
func (hw *Writer) Frame(f *store.Frame) {
	switch f.Kind {
	case store.KindRequest, store.KindResponse, store.KindError:
	case store.KindHTTPStatus:
		if r := f.Record; f.Dir != capture.S2C || r == nil || r.HTTP == nil || r.HTTP.Status < 300 {
			return
		}
	default:
		return
	}
	if f.Call < 0 || hw.err != nil {
		return
	}
	b := hw.buf[:0]
	if len(hw.seqs) > 0 {
		b = append(b, ",\n"...)
		hw.sorted = hw.sorted && f.Seq > hw.seqs[len(hw.seqs)-1]
	}
	b = append(b, '[')
	b = strconv.AppendUint(b, f.Seq, 10)
	b = append(b, ',')
	b = appendQuote(b, string(f.Dir))
	b = append(b, ',')
	b = appendBody(b, f.Record)
	b = append(b, ']')
	hw.seqs = append(hw.seqs, f.Seq)
	_, hw.err = hw.fw.Write(b)
	hw.buf = b
}

// appendBody appends the frame bytes of r as a JSON string: the line as
// received (Raw) when it differs from Msg, else Msg, the text followed by
// a 2 member (a status frame's body that is not JSON), or the base64 of
// bytes that are not UTF-8 followed by a 1 member.
func appendBody(b []byte, r *capture.Record) []byte {
	switch {
	case r == nil:
		return append(b, `""`...)
	case r.Raw != "":
		return appendQuote(b, r.Raw)
	case len(r.Msg) > 0:
		return appendQuote(b, r.Msg)
	case r.B64 != nil:
		return append(appendQuote(b, base64.StdEncoding.EncodeToString(r.B64)), ",1"...)
	case r.Text != "":
		return append(appendQuote(b, r.Text), ",2"...)
	}
	return appendQuote(b, r.Text)
}

// line returns the index of the spooled frame of seq, or -1.
func (hw *Writer) line(seq uint64) int {
	if seq == 0 {
		return -1
	}
	if hw.sorted {
		if i, ok := slices.BinarySearch(hw.seqs, seq); ok {
			return i
		}
		return -1
	}
	if hw.bySeq == nil {
		hw.bySeq = make(map[uint64]int, len(hw.seqs))
		for i, s := range hw.seqs {
			if _, dup := hw.bySeq[s]; !dup {
				hw.bySeq[s] = i // the first, as a linear search finds it
			}
		}
	}
	if i, ok := hw.bySeq[seq]; ok {
		return i
	}
	return -1
}

// Finish writes the page of snap: the markup, the report-data block, the
// script, then the frames-data block.
func (hw *Writer) Finish(snap *store.Snapshot) error {
	if hw.err == nil {
		hw.err = hw.fw.Flush()
	}
	if hw.err != nil {
		return fmt.Errorf("spooling frames: %w", hw.err)
	}
	bw := bufio.NewWriterSize(hw.w, 64<<10)
	p := newPage(snap, &hw.opts)
	a := hw.auth
	if a == nil {
		a = &oauth.Auth{}
	}
	p.Auth = authViews(a, snap.Session.Start)
	p.Proofs = proofViews(a, snap.Session.Start)
	if err := pageTemplate.ExecuteTemplate(bw, "head", p); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if _, err := io.WriteString(bw, "<script type=\"application/json\" id=\"report-data\">"); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	sw := newScriptWriter(bw)
	if err := hw.writeData(sw, snap); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	// The script comes before the frames, the bulk of a big page, so that
	// the browser runs it (and shows the calls) before parsing them.
	if _, err := io.WriteString(bw, "</script>\n"); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if err := pageTemplate.ExecuteTemplate(bw, "script", p); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if _, err := io.WriteString(bw, `<script type="application/octet-stream" id="frames-data" data-encoding="gzip base64">`); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if err := hw.writeFrames(bw); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if _, err := io.WriteString(bw, "</script>\n</body>\n</html>\n"); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing HTML: %w", err)
	}
	return nil
}

// writeFrames writes the frames-data block's content: the JSON array of
// the spooled frames, one a line, gzipped and in base64. The frames are
// the bulk of a big page and repeat themselves (a 100k-call session's
// compress about tenfold); base64 holds no character that could end the
// block, and the page inflates them (DecompressionStream) only when a
// call is first opened.
func (hw *Writer) writeFrames(w io.Writer) error {
	b64 := base64.NewEncoder(base64.StdEncoding, w)
	zw := gzip.NewWriter(b64)
	if _, err := io.WriteString(zw, "[\n"); err != nil {
		return err
	}
	if _, err := hw.frames.WriteTo(zw); err != nil {
		return err
	}
	if _, err := io.WriteString(zw, "\n]"); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return b64.Close()
}
