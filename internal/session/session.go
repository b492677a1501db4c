// Package session opens a capture's session as the user configured it:
// the capture reader's records, redacted when asked, go through one store
// graded by the user's rules registry, with the rules that read frames
// (internal/rules' Checks) and the authorization view (internal/oauth),
// and come out as one Session: the snapshot and the auth flow, each
// computed once. It is the one way from a capture to a view: every
// command, the TUI's source, the index and the events feed open sessions
// here and build no reader → store chain of their own (internal/archtest
// checks that nothing else calls store.New or store.Load).
//
// It sits just above store, rules, oauth and redact and below every view
// (check, index, export, tui, events) and the CLI. Load reads a whole
// session on the calling goroutine plus one reader goroutine it ends
// before returning; NewStore returns a store for a caller that ingests
// records itself (live views), owned by that caller's goroutine.
//
// It also finds the sessions an argument names: CapturePath and Resolve
// turn a path, session id or id prefix into a capture file of the
// sessions directory (typed *ResolveError when none or several match),
// Each reads every session of a file, EachIn every capture of a
// directory, and Ledgers every stored session's elicitation ledger. The
// CLI turns their typed errors into its messages and exit codes.
package session

import (
	"io"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Options say how a session is opened. A nil *Options means the zero
// value: every finding kept ungraded, every check run, nothing redacted.
type Options struct {
	// Rules grades the findings: the user's registry (the configuration's
	// [rules] applied to rules.Default). Nil keeps every finding, ungraded
	// (store.Options.Rules).
	Rules *finding.Registry
	// NoChecks leaves out the rules that read frames (rules.Checks), for a
	// reader that shows no findings (a mock, the ledger). False runs them.
	NoChecks bool
	// Redactor, when non-nil, redacts each record before the store sees
	// it (Load only; a live caller redacts what it ingests itself).
	Redactor redact.Redactor
	// Header, when non-nil, is the session record Load ingests first, as
	// Header returned it (a view built before Load needs it). Nil makes
	// Load take Header(r, Redactor).
	Header *capture.Record
	// OnFrame, OnStderr and OnChange are the store's hooks (store.Options):
	// nil calls nothing.
	OnFrame  func(*store.Frame)
	OnStderr func(*store.StderrLine)
	OnChange func(*store.Change)
	// Source and KeepFrames say how the snapshot reads frames back
	// (store.Options): nil and false keep no way.
	Source     io.ReaderAt
	KeepFrames bool
	// Forget makes the store keep only what is open, for a consumer of the
	// change feed alone (store.Options.Forget). False keeps everything.
	Forget bool
}

// Session is one session of a capture, read to its end.
type Session struct {
	// Snapshot is the correlated session, every finding graded and
	// located at its capture line.
	Snapshot *store.Snapshot
	// Auth is the session's authorization flows, read once (oauth.Read);
	// it has no flow for a session that had none (a stdio capture).
	Auth oauth.Auth
}

// loader is one session being opened: its store's options and the
// tracker the auth view reads.
type loader struct {
	opts  store.Options
	track *oauth.Tracker // nil when the OAuth rules track (auth, below)
	oauth *rules.OAuth
}

// newLoader builds the store options of o, with one tracker of the
// authorization flow shared by the OAuth rules and the auth view.
func newLoader(o *Options) *loader {
	if o == nil {
		o = &Options{}
	}
	l := &loader{opts: store.Options{
		Rules: o.Rules, OnFrame: o.OnFrame, OnStderr: o.OnStderr, OnChange: o.OnChange,
		Source: o.Source, KeepFrames: o.KeepFrames, Forget: o.Forget,
	}}
	if !o.NoChecks {
		l.opts.Checks = rules.Checks()
		for _, c := range l.opts.Checks {
			if oa, ok := c.(*rules.OAuth); ok {
				l.oauth = oa
			}
		}
	}
	if l.oauth == nil && !o.Forget {
		l.track = &oauth.Tracker{}
		l.opts.Checks = append(l.opts.Checks, l.track)
	}
	return l
}

// session returns the Session of snap, reading its auth flow once.
func (l *loader) session(snap *store.Snapshot) *Session {
	s := &Session{Snapshot: snap}
	switch {
	case l.oauth != nil:
		s.Auth = l.oauth.Auth(snap)
	case l.track != nil:
		s.Auth = oauth.Read(snap, l.track)
	}
	return s
}

// NewStore returns a store made as opts say, for a caller that ingests
// the records itself (the TUI's source, the events feed): Redactor and
// Header are ignored, and the auth view is not kept. The store belongs
// to the caller's goroutine.
func NewStore(opts *Options) *store.Store {
	l := newLoader(opts)
	if l.track != nil {
		l.opts.Checks = l.opts.Checks[:len(l.opts.Checks)-1]
	}
	return store.New(&l.opts)
}

// Header returns a copy of the session record r is at, redacted by red
// when it is not nil (which starts red afresh for the session).
func Header(r *capture.Reader, red redact.Redactor) *capture.Record {
	h := *r.Header()
	if red != nil {
		red.Reset()
		red.Record(&h)
	}
	return &h
}
