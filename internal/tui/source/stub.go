// Package source feeds the TUI: it follows capture files as they grow and
// hands the screens newer ui.Data (one session) and ui.SessionInfo lists
// (the hub over the state directory).
//
// STUB: the contract the app builds on; the real source replaces this file.
// This stub reads a capture once, whole, and never follows it.
package source

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Options are the knobs of Open, Read and Watch. A nil *Options means the
// defaults.
type Options struct {
	// Redactor, when non-nil, scrubs every record before the store sees it
	// (the --redact-* flags and .mcptrail.toml, as for export).
	Redactor *redact.Redactor
	// Rules grades the findings (internal/rules.Default with [rules]).
	Rules *finding.Registry
}

// Session is one session being read or followed.
type Session struct {
	ch  chan ui.Data
	err error
}

// Open follows session id ("" the file's last) of the capture at path:
// Updates delivers a newer Data as the file grows, until the session's end
// record.
func Open(ctx context.Context, path, id string, opts *Options) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening capture: %w", err)
	}
	defer f.Close()
	s, err := Read(ctx, f, id, opts)
	return s, err
}

// Read reads session id ("" the first) of a capture from r, such as
// standard input, whole; Updates delivers one Data, then closes.
func Read(_ context.Context, r io.Reader, _ string, opts *Options) (*Session, error) {
	if opts == nil {
		opts = &Options{}
	}
	cr, err := capture.NewReader(r)
	if err != nil {
		return nil, err
	}
	snap, err := store.Load(cr, &store.Options{Rules: opts.Rules, KeepFrames: true})
	if err != nil {
		return nil, err
	}
	s := &Session{ch: make(chan ui.Data, 1)}
	s.ch <- ui.Data{Snap: snap, Gen: 1}
	close(s.ch)
	return s, nil
}

// Updates delivers the session's newer Data, newest first (a reader that
// falls behind gets the latest, never a queue); it is closed once the
// session ended and its last Data was delivered, or Close was called.
func (s *Session) Updates() <-chan ui.Data { return s.ch }

// Err reports why Updates closed early (a read error), or nil.
func (s *Session) Err() error { return s.err }

// Close stops following.
func (s *Session) Close() error { return nil }

// Hub follows the state directory's sessions.
type Hub struct {
	ch chan []ui.SessionInfo
}

// Watch lists the sessions of dir (capture.SessionsDir of the state
// directory) and keeps the list up to date: Updates delivers a newer list,
// newest first, within a second of a change.
func Watch(_ context.Context, dir string, _ *Options) *Hub {
	h := &Hub{ch: make(chan []ui.SessionInfo, 1)}
	files, _ := capture.SessionFiles(dir)
	var out []ui.SessionInfo
	for _, f := range files {
		out = append(out, ui.SessionInfo{Path: f})
	}
	h.ch <- out
	return h
}

// Updates delivers the newer session lists; closed by Close.
func (h *Hub) Updates() <-chan []ui.SessionInfo { return h.ch }

// Close stops watching.
func (h *Hub) Close() {}
