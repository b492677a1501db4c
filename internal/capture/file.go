package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Mode says what CreateFile does when the capture file already exists.
type Mode int

// The modes.
const (
	// Exclusive refuses an existing file (ErrExists): a capture is never
	// overwritten by accident.
	Exclusive Mode = iota
	// Append adds a new session after the file's existing content
	// (--append); a missing file is created.
	Append
	// Truncate replaces the file's content (--force), once the lock is
	// held.
	Truncate
)

// Errors returned by CreateFile.
var (
	// ErrExists means the capture file exists and the mode is Exclusive.
	ErrExists = errors.New("capture file exists")
	// ErrSymlink means the path's last component is a symbolic link,
	// which CreateFile never follows.
	ErrSymlink = errors.New("capture path is a symbolic link")
	// ErrNotRegular means the path names a directory, device or pipe.
	ErrNotRegular = errors.New("capture path is not a regular file")
	// ErrLocked means another process holds the file's lock; a
	// *LockedError carries who.
	ErrLocked = errors.New("capture file is in use")
	// ErrPathTaken means Discard found another file at the capture's path,
	// which it left alone.
	ErrPathTaken = errors.New("another file has taken the capture's place; it was left alone")
)

// LockedError is returned when another mcptrail holds the capture file's
// lock. Holder is the last session record in the file, whose PID and
// SessionID name the writer, or nil when the file has none yet.
type LockedError struct {
	Path   string
	Holder *Record
}

func (e *LockedError) Error() string {
	h := e.Holder
	if h == nil || h.PID == 0 {
		return fmt.Sprintf("%s is in use by another mcptrail process", e.Path)
	}
	return fmt.Sprintf("%s is in use by another mcptrail process (pid %d, session %s started %s)",
		e.Path, h.PID, h.SessionID, h.Time.UTC().Format(time.RFC3339))
}

// Unwrap makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Unwrap() error { return ErrLocked }

// File is an open, locked capture file. The lock (an exclusive flock on
// Unix) is held until Close, so a second writer fails at once instead of
// interleaving records.
type File struct {
	*os.File
	path    string
	fresh   bool  // the file was created, or truncated, by this run
	initial int64 // the size before this run appended (Append)
	start   int64 // where this run's first record goes
}

// CreateFile opens a private (0600) capture file at path for one session,
// making its directory 0700 when missing. It never follows a symbolic
// link at the last component, refuses an existing file in Exclusive mode,
// and takes the file's lock before it truncates or appends anything.
func CreateFile(path string, mode Mode) (*File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating capture directory: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil {
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("creating capture %s: %w (give the target's own path)", path, ErrSymlink)
		case !fi.Mode().IsRegular():
			// Checked before the open, which would block on a pipe.
			return nil, fmt.Errorf("creating capture %s: %w", path, ErrNotRegular)
		}
	}
	f, created, err := open(path, mode)
	switch {
	case isSymlinkErr(err):
		return nil, fmt.Errorf("creating capture %s: %w (give the target's own path)", path, ErrSymlink)
	case err != nil:
		return nil, err
	}
	cf, err := settle(f, path, mode, created)
	if err != nil {
		f.Close()
		return nil, err
	}
	return cf, nil
}

// open creates path (O_EXCL), or opens the existing file for the mode,
// and reports whether it created it.
func open(path string, mode Mode) (*os.File, bool, error) {
	f, err := openNoFollow(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		return f, true, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, false, fmt.Errorf("creating capture: %w", err)
	}
	switch mode {
	case Append:
		f, err = openNoFollow(path, os.O_WRONLY|os.O_APPEND, 0)
	case Truncate:
		// Truncated only once the lock is held (settle).
		f, err = openNoFollow(path, os.O_WRONLY, 0)
	default:
		return nil, false, existsError(path)
	}
	if err != nil && !isSymlinkErr(err) {
		err = fmt.Errorf("opening capture: %w", err)
	}
	return f, false, err
}

// settle checks the opened file, locks it and prepares it for the mode.
func settle(f *os.File, path string, mode Mode, created bool) (*File, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("creating capture: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("creating capture %s: %w", path, ErrNotRegular)
	}
	if err := lockSoon(f); err != nil {
		if errors.Is(err, ErrLocked) {
			return nil, &LockedError{Path: path, Holder: lastHeader(path)}
		}
		return nil, fmt.Errorf("locking capture %s: %w", path, err)
	}
	cf := &File{File: f, path: path, fresh: created || mode == Truncate}
	switch mode {
	case Truncate:
		if err := f.Truncate(0); err != nil {
			return nil, fmt.Errorf("truncating capture %s: %w", path, err)
		}
	case Append:
		cf.initial = fi.Size()
		if ok, err := IsCapture(path); err == nil && !ok && fi.Size() > 0 {
			return nil, fmt.Errorf("appending to %s: %w (--append adds sessions only to a capture)", path, ErrNotCapture)
		}
		if err := endLine(f, fi.Size()); err != nil {
			return nil, fmt.Errorf("appending to capture %s: %w", path, err)
		}
		if fi, err = f.Stat(); err != nil {
			return nil, fmt.Errorf("appending to capture %s: %w", path, err)
		}
		cf.start = fi.Size()
	}
	return cf, nil
}

// lockWait is how long CreateFile keeps trying a held lock before it
// reports the holder: long enough to outlast a transient holder (a
// reader's liveness probe, a child process between its fork and its
// exec), short enough that a live writer is reported at once.
const lockWait = 100 * time.Millisecond

// lockSoon takes f's lock, retrying while it is held for up to lockWait.
func lockSoon(f *os.File) error {
	deadline := time.Now().Add(lockWait)
	for {
		err := lockFile(f)
		if !errors.Is(err, ErrLocked) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Start returns where this run's first record goes: the number of lines
// before it and its byte offset; zero for both unless the run appends to
// a capture, whose lines it then counts, reading up to there once.
func (f *File) Start() (lines int, offset int64, err error) {
	if f.start == 0 {
		return 0, 0, nil
	}
	r, err := os.Open(f.path)
	if err != nil {
		return 0, 0, fmt.Errorf("counting capture lines: %w", err)
	}
	defer r.Close()
	buf := make([]byte, 256<<10)
	for rest := io.Reader(io.LimitReader(r, f.start)); ; {
		n, err := rest.Read(buf)
		lines += bytes.Count(buf[:n], []byte{'\n'})
		if errors.Is(err, io.EOF) {
			return lines, f.start, nil
		}
		if err != nil {
			return 0, 0, fmt.Errorf("counting capture lines: %w", err)
		}
	}
}

// endLine ends a torn last line (a writer killed mid-record) with a
// newline, so the new session's record starts on a line of its own; the
// reader reports the torn line as damage of the session before.
func endLine(f *os.File, size int64) error {
	if size == 0 {
		return nil
	}
	r, err := os.Open(f.Name())
	if err != nil {
		return err
	}
	defer r.Close()
	var last [1]byte
	if _, err := r.ReadAt(last[:], size-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	_, err = f.Write([]byte{'\n'})
	return err
}

// existsError refuses an existing file, saying whether a running mcptrail
// holds it.
func existsError(path string) error {
	msg := "creating capture %s: %w; pass --append to add a session to it, --force to replace it, or use a template such as {time} in the path"
	if r, err := openNoFollow(path, os.O_RDONLY, 0); err == nil {
		held := probeLock(r)
		r.Close()
		if held {
			return fmt.Errorf(msg+" (%w)", path, ErrExists, &LockedError{Path: path, Holder: lastHeader(path)})
		}
	}
	return fmt.Errorf(msg, path, ErrExists)
}

// lastHeader returns the last session record in the file at path, or nil.
func lastHeader(path string) *Record {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	idx, err := Index(f)
	if err != nil || len(idx) == 0 {
		return nil
	}
	return &idx[len(idx)-1].Header
}

// Path returns the file's path.
func (f *File) Path() string { return f.path }

// Close releases the lock and closes the file. The lock is dropped
// explicitly first: a child process forked meanwhile (the stdio tap's
// server, or any exec in this process) shares the open file description
// until its exec closes it, and would otherwise keep the lock alive past
// this Close.
func (f *File) Close() error {
	unlockFile(f.File)
	return f.File.Close()
}

// Discard removes what this run wrote, for a session that relayed
// nothing (the server could not start), and closes the file: a file this
// run created or truncated is removed; an appended file is cut back to its
// earlier content, which is never touched. The path is removed only while
// it still names the file this run opened, so a file put in its place
// meanwhile is never deleted.
func (f *File) Discard() error {
	var err error
	if f.fresh {
		err = discardFresh(f) // file_unix.go, discard_nounix.go
	} else {
		err = f.File.Truncate(f.initial)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("removing the empty capture %s: %w", f.path, err)
	}
	return nil
}

// removeSame removes path when it still names the file fi describes, and
// reports a different file there as ErrPathTaken.
func removeSame(path string, fi fs.FileInfo) error {
	now, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !os.SameFile(fi, now) {
		return ErrPathTaken
	}
	return os.Remove(path)
}

// IsCapture reports whether the file at path exists and starts with a
// session record, so a command writing an output can refuse to overwrite
// a capture.
func IsCapture(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("checking %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, err
	}
	_, err = NewReader(io.LimitReader(f, 1<<20))
	return err == nil || errors.Is(err, ErrFutureVersion), nil
}
