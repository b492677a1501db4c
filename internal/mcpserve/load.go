package mcpserve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
// reader at it and the file to close. A capture whose writer is still
// there (capture.WriterAlive: a proxy is recording it) is read as the
// TUI's follower reads it, up to its last complete line: the line being
// written is not yet there, not torn; s.live says so for the answer.
func (s *Server) open(arg string) (*capture.Reader, *os.File, error) {
	path, want, err := s.resolve(arg)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening capture: %w", errors.Unwrap(err))
	}
	var in io.ReadSeeker = f
	s.live = false
	if alive, _ := capture.WriterAlive(path); alive {
		end, err := lastLineEnd(f)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("reading session %q: %w", arg, err)
		}
		in, s.live = io.NewSectionReader(f, 0, end), true
	}
	r, err := openIn(in, want)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("reading session %q: %w", arg, err)
	}
	return r, f, nil
}

// resolve returns the capture file and session id arg names.
func (s *Server) resolve(arg string) (path, id string, err error) {
	skip := func(path string, err error) { s.warn(fmt.Sprintf("mcptrail: skipping %s: %v", path, err)) }
	return session.Resolve(s.sessionsDir(), arg, skip)
}

// lastLineEnd returns the offset just past the last newline of f (0 when
// it has none): where the complete lines of a file still written end.
func lastLineEnd(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 64<<10)
	for end := fi.Size(); end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// openIn returns a reader at the session of in whose id starts with want
// (the last one when want is "").
func openIn(in io.ReadSeeker, want string) (*capture.Reader, error) {
	idx, err := capture.Index(in)
	if err != nil {
		return nil, err
	}
	sess, err := capture.PickSession(idx, want)
	if err != nil {
		return nil, err
	}
	return capture.OpenSession(in, sess)
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
