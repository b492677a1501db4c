package store

import (
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
		switch {
		case r.Signal != "":
			s.raise(finding.New(finding.ServerExitAbnormal, r.Seq, "the server was killed by %s", r.Signal))
		case r.Exit != nil && *r.Exit != 0:
			s.raise(finding.New(finding.ServerExitAbnormal, r.Seq, "the server exited with status %d", *r.Exit))
		}
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
