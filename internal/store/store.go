// Package store is mcptrail's only correlator. It ingests capture records in
// file order and pairs what the two peers said: calls (a request and its
// answer, one id space per direction), MRTR operations (2026-07-28 chains of
// input_required rounds), legacy server-initiated requests attributed to the
// client call they interrupted, eras, capabilities, durations, the catalog
// of what the server listed (catalog.go) and the correlation findings.
// Views read immutable Snapshots, or follow the
// change feed (Options.OnChange, changes.go) as records are ingested, and
// never re-parse frames. The store builds nothing for any one view: what
// analytics events carry is built by the events package from the feed.
//
// Policies worth knowing when reading a snapshot:
//   - unanswered-request is raised only for a capture that ended cleanly
//     (an end record); in a live or torn capture a pending call may still
//     be running, and a cancelled call is never flagged;
//   - only a request carrying inputResponses or requestState is paired as
//     an MRTR retry; a bare request with the same tool and arguments is a
//     fresh call (a state-only interim result retried without its state is
//     indistinguishable from one);
//   - a request's era is modern (its _meta carries the protocol version),
//     legacy (initialize, anything after it, every server-to-client
//     request) or unknown ("");
//   - a client call counts as in flight for legacy attribution until it is
//     answered, cancelled, or its id is taken over by a newer request.
//
// The store raises the correlation findings itself (a late result, a
// duplicate response, an unanswered request…: the rule ids
// internal/archtest's TestStoreRaisesTheseRules lists), every one through
// one path in findings.go (raise while ingesting, appendGraded for what
// only a snapshot decides, both through grade): Options.Rules (a
// finding.Registry, defined in internal/rules) grades it or drops it, and
// it takes the capture line of the frame it names (lines.go). Every other
// finding is a rule in internal/rules, run as Options.Checks on each
// correlated frame (and as a Finisher on each snapshot).
//
// It sits below the rules and the views (export, check, tui, events) and
// above capture, wire and mcp. A Store is not safe for concurrent use: one
// goroutine ingests; Snapshot returns an immutable snapshot that any
// goroutine may read while the store goes on ingesting.
//
// Snapshots are cheap to take after every record: a snapshot shares with
// the store and with earlier snapshots everything that did not change
// (calls, operations and ledger rows sit in chunks the store copies before
// changing one; findings are only appended to; the statistics, eras and
// protocol versions are kept up to date as calls change), so taking one
// costs what changed since the last, not the session's size.
//
// A snapshot also hands out any frame by seq, so that a view shows a
// frame's bytes without holding every frame. Give the store the capture
// it reads as Options.Source (it keeps 8 bytes a frame: the offset a
// capture.Reader reported) or, for a live session without a file, set
// Options.KeepFrames (it keeps each frame's line). A view then calls
//
//	rec, err := snap.Frame(call.RequestSeq) // the request's capture.Record
//
// from any goroutine; errors.Is(err, ErrNoFrame) means the snapshot has
// no such frame or the store kept no way to read frames.
package store

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Options are the store's knobs. A nil *Options means the defaults.
type Options struct {
	// OnFrame, when non-nil, is called once per frame record after it has
	// been correlated, so views can stream frames without re-parsing. The
	// Frame and its Record are valid only during the call.
	OnFrame func(*Frame)
	// OnStderr, when non-nil, is called once per stderr record (the
	// server's stderr, one line a record), in capture order; the line and
	// its Record are valid only during the call. The store keeps none.
	OnStderr func(*StderrLine)
	// OnChange, when non-nil, is called on the ingesting goroutine with
	// each change as it happens (the change feed, changes.go). The Change
	// and what it points to are valid only during the call.
	OnChange func(*Change)
	// Rules grades the findings (finding.Registry.Grade): the findings of
	// a disabled or unknown rule are dropped, the others take the rule's
	// effective severity. Nil keeps every finding, ungraded (its Severity
	// is empty); internal/rules.Default is the full set.
	Rules *finding.Registry
	// Checks run on every frame after it has been correlated (before
	// OnFrame), raising findings of rules that are not correlation (the
	// HTTP header rules of internal/rules). Each belongs to this store.
	Checks []Check
	// Source, when non-nil, is the capture the records are read from
	// (by a capture.Reader, which sets Record.Offset): the store keeps
	// each frame's offset, 8 bytes a frame, and Snapshot.Frame reads the
	// frame back from Source. Nil keeps no offsets.
	Source io.ReaderAt
	// KeepFrames, for a session without a file (live, or not captured),
	// makes the store keep a copy of each frame record, encoded as a
	// capture line, for Snapshot.Frame; it is ignored when Source is set.
	// False keeps none.
	KeepFrames bool
	// Forget makes the store keep what is open, not the session's history,
	// for a consumer of the change feed alone (the live analytics events
	// of a long-running tap): once a record's changes are emitted, the
	// calls it finished are forgotten (forget.go), findings are emitted and
	// not kept, and a Snapshot holds the session's fields and counts only.
	// Memory then follows the open calls. False keeps everything.
	Forget bool
}

// Check is a set of rules that reads the frames of one session. Check is
// called once per frame record, with the Frame valid only during the
// call; raise adds a finding to the session (graded by Options.Rules).
type Check interface {
	Check(f *Frame, raise func(finding.Finding))
}

// Finisher is a Check that also judges the session as a whole: Finish is
// called each time a snapshot is built, with that snapshot (its Findings
// not yet set), and raises the findings only the ledger, the catalog or
// the end of the session decide. It must not keep s, and it must raise
// the same findings for the same snapshot (Finish runs once per snapshot).
type Finisher interface {
	Finish(s *Snapshot, raise func(finding.Finding))
}

// Store correlates the records of one session.
type Store struct {
	opts     Options
	sess     Session
	counts   Counts
	calls    callTable
	ops      []Operation
	findings []finding.Finding
	// noBody holds the http-request-without-response findings, graded,
	// that a snapshot keeps only when their call is still unanswered and
	// uncancelled (http.go).
	noBody []finding.Finding
	// checked findings are known to be in seq order unless disordered.
	checked    int
	disordered bool
	last       time.Time // time of the latest record

	// decoder decodes frames, sharing method names across them.
	decoder wire.Decoder

	// byID finds the latest call by (direction of the request, conn, id).
	byID ids
	// inflight holds the unanswered, uncancelled client calls, for legacy
	// attribution; exchanges maps an HTTP exchange id to such a call.
	inflight  inflight
	exchanges map[string]int
	// unreadable counts, per direction, frames nobody can answer by id
	// (invalid frames, null-id requests), each of which excuses one error
	// reply with a null or absent id travelling the other way.
	unreadable [2]int
	// probe is 1 + the index of the client's latest server/discover, 0
	// before one; the initialize that follows a refused one makes it
	// negotiation (Call.Negotiation).
	probe int
	// waitedProbe is 1 + the index of a probe the client followed with
	// initialize before it was answered, 0 when none: its answer decides.
	waitedProbe int
	legacy      legacyState
	peers       peerState
	mrtr        mrtrState
	task        taskState
	sse         sseState
	ledger      ledgerState
	// opsMirror and rowsMirror are the operations and ledger rows as the
	// last snapshot shares them (list.go).
	opsMirror  mirror[Operation]
	rowsMirror mirror[LedgerRow]
	view       Frame                 // handed to Checks and OnFrame
	msg        wire.Frame            // what view.Msg points to
	raiseFn    func(finding.Finding) // s.raise, made once for Checks
	names      interner
	cat        catalogState
	feed       changeFeed
	lastSeq    uint64 // the latest record's seq
	// closedCancels holds the calls cancelled by the client closing their
	// HTTP stream (notes.go), so that a notifications/cancelled naming one
	// of them after it is the same cancellation, not an unknown request.
	closedCancels map[int]bool
	frames        frameIndex // empty unless Options.Source or KeepFrames is set
	lines         lineIndex  // each frame's capture line, empty under Forget (lines.go)
	xchg          Exchanges  // exchanges.go
	forgetting    forgetState
}

// New returns an empty Store.
func New(opts *Options) *Store {
	s := &Store{
		byID:      newIDs(),
		exchanges: make(map[string]int),
		mrtr:      newMRTRState(),
	}
	s.raiseFn = s.raise
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Forget {
		s.calls.forgetting()
		s.forgetting.exchangeOf = make(map[int]string)
		s.ledger.declaredOf = make(map[int]modes)
	}
	return s
}

// Ingest adds one record of any type. Records must come in file order.
func (s *Store) Ingest(r *capture.Record) { s.ingest(r, nil) }

// IngestDecoded is Ingest for a frame record r whose message Decode has
// already decoded into f, so that a caller can decode on another goroutine
// (session.Load does it on its reader's). f must be Decode's result for r
// as it is now (after any redaction); its raw values alias r's bytes.
// Records of other types ignore f.
func (s *Store) IngestDecoded(r *capture.Record, f *wire.Frame) { s.ingest(r, f) }

// Decode decodes the message of frame record r the way Ingest does (its
// msg, else its text or bytes), d sharing method names across frames.
// With read, r.Msg is as a capture.Reader returned it (valid JSON, which
// the decoder then need not check again). Decode reads nothing of the
// store, so it may run on any goroutine, one d per goroutine.
func Decode(d *wire.Decoder, r *capture.Record, read bool) wire.Frame {
	if len(r.Msg) == 0 {
		return d.Decode(r.Bytes())
	}
	if read {
		return d.DecodeValid(r.Msg)
	}
	return d.Decode(r.Msg)
}

// ingest is Ingest; f, when not nil, is the frame record's message as
// Decode decoded it.
func (s *Store) ingest(r *capture.Record, f *wire.Frame) {
	s.counts.Records++
	s.feed.rec = r
	if r.Seq != 0 {
		s.lastSeq = r.Seq
	}
	if !r.Time.IsZero() {
		s.last = r.Time
	}
	switch r.Type {
	case capture.TypeSession:
		s.header(r)
	case capture.TypeFrame:
		s.frame(r, f)
	case capture.TypeStderr:
		s.stderr(r)
	case capture.TypeNote:
		s.note(r)
	case capture.TypeEnd:
		s.end(r)
	case capture.TypeExchange, capture.TypeTunnel:
		s.exchange(r)
	}
	if s.opts.Forget {
		s.forgetFinished()
	}
	s.calls.flush()
	s.feed.rec, s.feed.msg, s.feed.frame = nil, nil, wire.Frame{}
}

// header records the session record's fields.
func (s *Store) header(r *capture.Record) {
	s.sess.ID = r.SessionID
	s.sess.Label = r.Label
	s.sess.Transport = r.Transport
	s.sess.Command = append([]string(nil), r.Command...)
	s.sess.Target = r.Target
	s.sess.ToolVersion = r.ToolVersion
	s.sess.Format = r.Format
	s.sess.Start = r.Time
	s.sess.Redacted = r.Redacted
}

// SetDamage records what the capture reader skipped. The torn and corrupt
// findings are derived from it in every Snapshot, so calling it again
// replaces the earlier value.
func (s *Store) SetDamage(d capture.Damage) {
	d.CorruptLines = append([]int(nil), d.CorruptLines...)
	s.sess.Damage = d
}

// Load reads a whole capture (its header, every record and the damage the
// reader reports) into a Snapshot. On a read error it returns the snapshot
// of what was read so far together with the error.
func Load(r *capture.Reader, opts *Options) (*Snapshot, error) {
	s := New(opts)
	s.Ingest(r.Header())
	var rec capture.Record
	var err error
	for {
		if err = r.Next(&rec); err != nil {
			break
		}
		s.Ingest(&rec)
	}
	s.SetDamage(r.Damage())
	snap := s.freeze(false)
	if !errors.Is(err, io.EOF) {
		return snap, fmt.Errorf("loading capture: %w", err)
	}
	return snap, nil
}

// clone copies a raw JSON value so that it outlives the record.
func clone(v jsontext.Value) jsontext.Value {
	if v == nil {
		return nil
	}
	return append(jsontext.Value(nil), v...)
}

// ms converts a duration to fractional milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
