package mcpserve

import (
	"errors"
	"fmt"
	"os"

	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/check"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/index"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
)

// args decodes a tool's arguments into v: case-sensitive, an unknown
// member refused, no arguments (or null) the zero value.
func args(raw []byte, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v, json.RejectUnknownMembers(true)); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

func (s *Server) sessionsDir() string { return capture.SessionsDir(s.opts.StateDir) }

func (s *Server) rules() *finding.Registry {
	if s.opts.Rules == nil {
		return rules.Default()
	}
	return s.opts.Rules
}

func (s *Server) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// open opens the session arg names in the sessions folder ("" the newest,
// else a session id or unique id prefix, session.Resolve) and returns a
// reader at it and the file to close.
func (s *Server) open(arg string) (*capture.Reader, *os.File, error) {
	skip := func(path string, err error) { s.warn(fmt.Sprintf("mcptrail: skipping %s: %v", path, err)) }
	path, want, err := session.Resolve(s.sessionsDir(), arg, skip)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening capture: %w", errors.Unwrap(err))
	}
	r, err := openIn(f, want)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("reading session %q: %w", arg, err)
	}
	return r, f, nil
}

// openIn returns a reader at the session of f whose id starts with want
// (the last one when want is "").
func openIn(f *os.File, want string) (*capture.Reader, error) {
	idx, err := capture.Index(f)
	if err != nil {
		return nil, err
	}
	sess, err := capture.PickSession(idx, want)
	if err != nil {
		return nil, err
	}
	return capture.OpenSession(f, sess)
}

// load reads the session arg names as the user configured it: every
// record redacted, every finding graded by the user's rules.
func (s *Server) load(arg string) (*store.Snapshot, error) { return s.loadWith(arg, nil) }

// checkSession checks the session arg names as `mcptrail check` does
// with no flag (the user's [rules], no assertion, no baseline), the
// records redacted as configured.
func (s *Server) checkSession(arg string) (*check.Report, error) {
	r, f, err := s.open(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := check.New(&check.Options{Tool: s.opts.Version, Rules: s.rules(), Redactor: s.opts.Redactor})
	if err := c.Check(r, f.Name()); err != nil {
		return nil, err
	}
	return c.Report(), nil
}

// indexed returns the sessions of the index that f selects, newest
// first, the index brought up to date with the sessions folder as
// `mcptrail sessions` does (in memory when the state directory's index
// cannot be opened).
func (s *Server) indexed(f index.Filter) ([]index.Session, error) {
	ix, err := index.Open(s.opts.StateDir, s.warn)
	if err != nil {
		s.warn(fmt.Sprintf("mcptrail: warning: %v; using an index in memory", err))
		if ix, err = index.OpenMemory(); err != nil {
			return nil, err
		}
	}
	defer ix.Close()
	ix.SetRules(s.rules())
	if _, err := ix.Sync(s.sessionsDir()); err != nil {
		return nil, err
	}
	return ix.Sessions(f)
}
