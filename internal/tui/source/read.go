package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Read reads session id of a capture from r, such as standard input,
// whole: id "" is the first session, otherwise the first whose id is id
// or starts with it (ErrNoSession when none does). The store keeps the
// frames (there is no file to read them back from). Updates delivers a
// Data (Live set) every Options.Interval while it reads, then the last,
// Live false, and closes; Err then reports a read error.
func Read(ctx context.Context, r io.Reader, id string, opts *Options) (*Session, error) {
	if opts == nil {
		opts = &Options{}
	}
	cr, err := capture.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("reading capture: %w", err)
	}
	if err := seek(cr, id); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := newSession(cancel, nil)
	in := newIngester(opts, nil, "")
	go s.read(ctx, cr, in)
	return s, nil
}

// seek moves cr to the first session whose id is id or starts with it.
func seek(cr *capture.Reader, id string) error {
	for !strings.HasPrefix(cr.Header().SessionID, id) {
		err := cr.NextSession()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("reading session %q: %w", id, ErrNoSession)
		}
		if err != nil {
			return fmt.Errorf("reading capture: %w", err)
		}
	}
	return nil
}

// read ingests the session from cr, then delivers the last Data.
func (s *Session) read(ctx context.Context, cr *capture.Reader, in *ingester) {
	in.start(cr.Header(), time.Now())
	var rec capture.Record
	var err error
	for {
		if err = cr.Next(&rec); err != nil {
			break
		}
		in.add(&rec)
		if in.due() {
			if ctx.Err() != nil {
				s.stop(nil)
				return
			}
			s.send(in.data(true, cr.Damage()))
		}
	}
	if errors.Is(err, io.EOF) {
		err = nil
	} else {
		err = fmt.Errorf("reading capture: %w", err)
	}
	s.send(in.final(cr.Damage()))
	s.stop(err)
}
