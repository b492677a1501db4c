package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// OldSuffix names where an index of another version, or a damaged one,
// is moved (index.db.old): one at most, the next one replaces it.
const OldSuffix = ".old"

// maxAttempts bounds how often openFile starts over when the file at the
// index's place changes under it (other processes creating the index or
// moving an old one aside at once).
const maxAttempts = 8

// openFile opens the index file, creating it when there is none and
// moving an old or damaged index of ours aside first. SQLite never opens
// a file that is not ours.
func (ix *Index) openFile() error {
	for range maxAttempts {
		f, err := ix.admit()
		if err == nil {
			if f.kind == kindOurs && f.version != schemaVersion {
				err = errStale
			} else {
				err = ix.open(f.fi)
			}
		}
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errChanged):
			continue
		case errors.Is(err, errStale):
			err = ix.moveAside(f.fi, "was made by another version of mcptrail")
		case unusable(f, err):
			err = ix.moveAside(f.fi, fmt.Sprintf("was unreadable (%v)", short(err)))
		}
		if err != nil {
			return err
		}
	}
	return fmt.Errorf("opening the session index %s: it kept changing while being opened", ix.path)
}

// unusable reports whether err, which preparing the file f gave, says an
// index of ours is damaged: corrupt, or failing the few fixed statements
// prepare runs (a header of an unsupported format, a table gone).
func unusable(f found, err error) bool {
	if Corrupt(err) {
		return true
	}
	var se *sqlite.Error
	return f.kind == kindOurs && errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_ERROR
}

// admit says what is at the index's place before SQLite may open it,
// creating a new private file (0600) when there is none.
func (ix *Index) admit() (found, error) {
	// The index never has a write-ahead log: SQLite would read one into
	// the index, or delete it beside an empty file.
	wal := ix.path + "-wal"
	if _, err := os.Lstat(wal); !errors.Is(err, fs.ErrNotExist) {
		return found{}, &ForeignError{Path: wal, Reason: "a write-ahead log beside the index, which never has one"}
	}
	f, err := inspect(ix.path)
	if err != nil || f.kind != kindNone {
		return f, err
	}
	nf, err := openNoFollow(ix.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return found{}, errChanged // another process made it first
	case err != nil:
		return found{}, fmt.Errorf("creating the session index: %w", err)
	}
	if err := nf.Close(); err != nil {
		return found{}, fmt.Errorf("creating the session index: %w", err)
	}
	return inspect(ix.path)
}

// moveAside renames the index of ours that fi identifies to index.db.old,
// replacing an earlier one of ours, and says so (why: what was wrong with
// it). Processes doing this at once take turns, and only the first finds
// the file still at its place; the others leave the new one alone.
func (ix *Index) moveAside(fi os.FileInfo, why string) error {
	// A foreign index.db.old stops us before lockDir, which on Windows
	// creates a lock file: then the state directory stays as it was.
	if err := checkOld(ix.path + OldSuffix); err != nil {
		return err
	}
	unlock, err := lockDir(filepath.Dir(ix.path))
	if err != nil {
		return fmt.Errorf("moving the session index aside: %w", err)
	}
	defer unlock()
	now, err := os.Lstat(ix.path)
	if err != nil || fi == nil || !os.SameFile(fi, now) {
		return nil // moved already
	}
	old := ix.path + OldSuffix
	if err := checkOld(old); err != nil {
		return err
	}
	if err := renameShared(ix.path, old); err != nil {
		if isSharingViolation(err) {
			return nil // still open elsewhere; openFile looks again
		}
		return fmt.Errorf("moving the session index aside: %w", err)
	}
	ix.warn(fmt.Sprintf("mcptrail: warning: the session index %s %s; moved it to %s and rebuilding it from the captures", ix.path, why, old))
	return nil
}

// renameShared renames from to to, trying again for a while when another
// handle has from open without sharing deletion (Windows: a process
// inspecting the stale index at this moment, which is brief).
func renameShared(from, to string) error {
	var err error
	for i := range 40 {
		if err = os.Rename(from, to); err == nil || !isSharingViolation(err) {
			return err
		}
		time.Sleep(time.Duration(i+1) * 5 * time.Millisecond)
	}
	return err
}

// checkOld returns a ForeignError when old holds anything but an index of
// ours (or nothing), which moveAside must not replace.
func checkOld(old string) error {
	prev, err := inspect(old)
	switch {
	case err != nil:
		return err
	case prev.kind == kindEmpty:
		return &ForeignError{Path: old, Reason: "an empty file"}
	}
	return nil
}
