package session

import (
	"fmt"
	"os"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// ResolveKind says why an argument names no capture (ResolveError).
type ResolveKind int

const (
	// IsDirectory is a path argument that is a directory, not a file.
	IsDirectory ResolveKind = iota + 1
	// CannotOpen is a path argument that cannot be read (Err says why;
	// errors.Is(Err, fs.ErrNotExist) when it is missing).
	CannotOpen
	// NoSessions is a sessions directory that holds no session.
	NoSessions
	// NoMatch is an id prefix no session in the directory starts with.
	NoMatch
	// DirNoMatch is NoMatch for an argument that is also a directory.
	DirNoMatch
	// Ambiguous is an id prefix several sessions start with (Matches).
	Ambiguous
)

// ResolveError is an argument CapturePath or Resolve finds no capture
// for: Kind says why.
type ResolveError struct {
	Kind ResolveKind
	// Arg is the argument as given.
	Arg string
	// Dir is the sessions directory searched; "" for a path argument.
	Dir string
	// Matches are the ids an Ambiguous prefix matches, in file order.
	Matches []string
	// Err is the cause of CannotOpen; nil otherwise.
	Err error
}

// Error says what was not found, and where.
func (e *ResolveError) Error() string {
	switch e.Kind {
	case IsDirectory:
		return fmt.Sprintf("%s is a directory, not a capture file", e.Arg)
	case CannotOpen:
		return fmt.Sprintf("opening capture %s: %v", e.Arg, capture.PathCause(e.Err))
	case NoSessions:
		return fmt.Sprintf("no sessions in %s", e.Dir)
	case DirNoMatch:
		return fmt.Sprintf("%s is a directory, not a capture file (and no session id in %s starts with it)", e.Arg, e.Dir)
	case Ambiguous:
		return fmt.Sprintf("session prefix %q is ambiguous in %s: %d sessions match", e.Arg, e.Dir, len(e.Matches))
	}
	return fmt.Sprintf("no session %q in %s", e.Arg, e.Dir)
}

// Unwrap returns the cause of a CannotOpen error.
func (e *ResolveError) Unwrap() error { return e.Err }

// CapturePath returns arg when it names an existing capture file, and ""
// when arg is no path at all ("", or a name without a path separator
// or the capture extension that is no file): then it is a session id or
// prefix for Resolve. A path that is a directory or cannot be read is a
// *ResolveError (IsDirectory, CannotOpen).
func CapturePath(arg string) (string, error) {
	if arg == "" {
		return "", nil
	}
	fi, err := os.Stat(arg)
	if err == nil && !fi.IsDir() {
		return arg, nil
	}
	if strings.ContainsRune(arg, os.PathSeparator) || strings.HasSuffix(arg, capture.Ext) {
		if err == nil {
			return "", &ResolveError{Kind: IsDirectory, Arg: arg}
		}
		return "", &ResolveError{Kind: CannotOpen, Arg: arg, Err: err}
	}
	return "", nil
}

// Resolve finds the capture file in the sessions directory dir that
// holds the session arg names: "" the newest file, else a session id or
// unique id prefix, first among the files' names, then among the
// sessions appended inside them. It returns the file's path and the
// session wanted in it: "" its last, else an id or id prefix. A file
// that cannot be indexed is passed to skip (with why) and left out. An
// argument that names none, or several, is a *ResolveError; an
// unreadable directory is capture.SessionFiles' error.
func Resolve(dir, arg string, skip func(path string, err error)) (path, id string, err error) {
	files, err := capture.SessionFiles(dir)
	if err != nil {
		return "", "", err
	}
	if arg == "" {
		if len(files) == 0 {
			return "", "", &ResolveError{Kind: NoSessions, Arg: arg, Dir: dir}
		}
		return files[0], "", nil
	}
	var matches []string
	for _, f := range files {
		if strings.HasPrefix(capture.SessionFileID(f), arg) {
			matches = append(matches, f)
		}
	}
	switch len(matches) {
	case 0:
		// Not a file's name: a session appended inside a file, perhaps.
		return findAppended(files, arg, dir, skip)
	case 1:
		return matches[0], arg, nil
	}
	ids := make([]string, len(matches))
	for i, m := range matches {
		ids[i] = capture.SessionFileID(m)
	}
	return "", "", &ResolveError{Kind: Ambiguous, Arg: arg, Dir: dir, Matches: ids}
}

// findAppended looks for a session id prefix among the sessions inside
// the files (sessions added with --append).
func findAppended(files []string, arg, dir string, skip func(string, error)) (string, string, error) {
	var path, id string
	var ids []string
	for _, f := range files {
		idx, err := IndexFile(f)
		if err != nil {
			if skip != nil {
				skip(f, err)
			}
			continue
		}
		for i := range idx {
			if strings.HasPrefix(idx[i].Header.SessionID, arg) {
				path, id = f, idx[i].Header.SessionID
				ids = append(ids, id)
			}
		}
	}
	switch len(ids) {
	case 0:
		if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
			return "", "", &ResolveError{Kind: DirNoMatch, Arg: arg, Dir: dir}
		}
		return "", "", &ResolveError{Kind: NoMatch, Arg: arg, Dir: dir}
	case 1:
		return path, id, nil
	}
	return "", "", &ResolveError{Kind: Ambiguous, Arg: arg, Dir: dir, Matches: ids}
}

// IndexFile lists the sessions in the capture file at path
// (capture.Index); an error says what failed, not the path.
func IndexFile(path string) ([]capture.Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening capture: %w", capture.PathCause(err))
	}
	defer f.Close()
	return capture.Index(f)
}
