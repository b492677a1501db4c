package store

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// note handles what the tap itself reported.
func (s *Store) note(r *capture.Record) {
	s.counts.Notes++
	switch r.Note {
	case capture.NoteCaptureGap:
		s.sess.LostFrames += r.LostFrame
		s.sess.LostBytes += r.LostBytes
		s.raise(finding.New(finding.CaptureGap, r.Seq, "the capture lost %d frames (%d bytes)", r.LostFrame, r.LostBytes))
	case capture.NoteServerExit:
		if r.Exit != nil {
			code := *r.Exit
			s.sess.Exit = &code
		}
		s.sess.Signal = r.Signal
		s.serverExit(r)
	case capture.NoteStreamAborted:
		s.streamClosedByClient(r)
	case capture.NoteStartFailed:
		s.raise(finding.New(finding.ServerStartFailed, r.Seq, "the server could not be started: %s", r.Text))
	case capture.NoteRelayError:
		s.raise(finding.New(finding.RelayError, r.Seq, "%s", r.Text))
	}
}

// end handles the end record of a cleanly closed capture.
func (s *Store) end(r *capture.Record) {
	s.sess.Ended = true
	s.sess.End = r.Time
}

// eofPatience is how long a server may go on running after its stdin
// closed before the stop request that ends it shows it ignored the EOF
// (the spec: the server SHOULD exit on EOF). The TS SDK's close() waits 2 s
// before its SIGTERM; its version probe sends SIGTERM with the EOF.
const eofPatience = time.Second

// serverExit judges how the server exited (r is a server-exit note). A
// server that ended on the stop its client asked for at shutdown (or the
// tap, when the client went away) exited normally, but if its stdin had
// been closed eofPatience before that, it ignored the EOF: an info
// finding of its own. A crash, or a server mcptrail had to kill because it
// ignored the stop, is abnormal.
func (s *Store) serverExit(r *capture.Record) {
	age := time.Duration(r.EOFAgeUS) * time.Microsecond
	switch {
	case r.StoppedBy == capture.StopKillAfter:
		s.raise(finding.New(finding.ServerExitAbnormal, r.Seq, "the server was still running --kill-after after it was asked to stop; mcptrail killed it"))
	case r.StoppedBy != "" && age >= eofPatience:
		by := "a stop signal passed on from the client"
		if r.StoppedBy == capture.StopTap {
			by = "mcptrail's SIGTERM when the client went away"
		}
		s.raise(finding.New(finding.ServerIgnoredEOF, r.Seq, "the server was still running %v after its stdin closed; %s ended it", age.Round(time.Millisecond), by))
	case r.StoppedBy != "":
		// Stopped by its client's own shutdown: a normal exit.
	case r.Signal != "":
		s.raise(finding.New(finding.ServerExitAbnormal, r.Seq, "the server was killed by %s", r.Signal))
	case r.Exit != nil && *r.Exit != 0:
		s.raise(finding.New(finding.ServerExitAbnormal, r.Seq, "the server exited with status %d", *r.Exit))
	}
}

// streamClosedByClient handles a response stream the client closed (the
// tap's stream-aborted note with StoppedBy StopClient): on Streamable
// HTTP in 2026-07-28, closing a request's response stream is how the
// client cancels it ("No notifications/cancelled is sent on HTTP"). A
// 2025 request is not cancelled by it: there a disconnection "SHOULD NOT
// be interpreted as the client cancelling its request".
func (s *Store) streamClosedByClient(r *capture.Record) {
	if r.StoppedBy != capture.StopClient || r.HTTP == nil || r.HTTP.Exchange == "" {
		return
	}
	idx, ok := s.exchanges[r.HTTP.Exchange]
	if !ok {
		return
	}
	c := s.calls.at(idx)
	if c.Dir != capture.C2S || c.Era != EraModern || c.ResponseSeq != 0 || c.CancelSeq != 0 {
		return
	}
	s.cancelled(idx, s.lastSeq) // a note has no seq of its own
	if s.closedCancels == nil {
		s.closedCancels = make(map[int]bool)
	}
	s.closedCancels[idx] = true
}
