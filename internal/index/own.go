package index

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"slices"
)

// applicationID marks an SQLite database as a mcptrail session index
// (PRAGMA application_id): "mctr" in ASCII.
const applicationID = 0x6d637472

// unmarkedVersion is the schema version of the indexes made before they
// carried applicationID: one of this user_version, application_id 0 and
// exactly the objects of unmarkedObjects is mcptrail's own.
const unmarkedVersion = 2

// unmarkedObjects returns the schema objects ("type:name", sorted) of an
// index of unmarkedVersion. Keep it when the schema changes: it is what
// such an index holds, not what a new one gets.
func unmarkedObjects() []string {
	return []string{
		"index:answers_sid", "index:calls_sid", "index:catalog_sid", "index:findings_sid", "index:ledger_sid",
		"index:sessions_path", "index:sessions_start", "index:sqlite_autoindex_files_1",
		"table:answers", "table:calls", "table:catalog", "table:files", "table:findings", "table:ledger", "table:sessions",
	}
}

// ForeignError is returned by Open when a file at the index's place (or
// beside it, or at the place an old index is moved to) is not a session
// index mcptrail made. The file is left as it was, byte for byte, and
// never followed when it is a link.
type ForeignError struct {
	Path   string // the file
	Reason string // what it is instead, such as "not an SQLite database"
}

func (e *ForeignError) Error() string {
	return fmt.Sprintf("%s is not a session index of mcptrail (%s), so it was left untouched; move it away to let mcptrail keep its index there", e.Path, e.Reason)
}

// errChanged says the file at the index's place changed while it was
// being opened: Open starts over.
var errChanged = errors.New("the session index changed while being opened")

// errStale says the index is mcptrail's, of another schema version: it
// is moved aside and made anew.
var errStale = errors.New("the session index is of another version")

// kind is what a file at the index's place turned out to be.
type kind int

const (
	kindNone     kind = iota // no file: the index is to be created
	kindEmpty                // an empty file: a database not made yet
	kindOurs                 // an index of ours: it carries applicationID
	kindUnmarked             // an index of ours from before applicationID
)

// found is what inspect found at a path.
type found struct {
	kind    kind
	version int32       // the user_version of kindOurs and kindUnmarked
	fi      os.FileInfo // the file's identity; nil for kindNone
}

// mark is what an SQLite database's header and schema say of it.
type mark struct {
	app, version int32
	pages        int      // 0 for an empty file (or database in memory), else 1
	objects      []string // "type:name", sorted; read only when app is 0
}

// judge says what the database at path whose header and schema say m
// is to the index: a *ForeignError unless it is ours or empty.
func judge(path string, m mark) (kind, error) {
	switch {
	case m.app == applicationID:
		return kindOurs, nil
	case m.app != 0:
		return 0, &ForeignError{Path: path, Reason: fmt.Sprintf("an SQLite database of another application: application_id %#08x", uint32(m.app))}
	case m.pages == 0:
		return kindEmpty, nil
	case m.version == unmarkedVersion && slices.Equal(m.objects, unmarkedObjects()):
		return kindUnmarked, nil
	}
	return 0, &ForeignError{Path: path, Reason: fmt.Sprintf("an SQLite database without mcptrail's mark: application_id 0, user_version %d", m.version)}
}

// inspect says what is at path before SQLite may open it: it follows no
// link, reads the file's header itself and, for a database without
// applicationID, its schema through a connection that can change nothing
// (immutable=1). Anything but an index of ours, an empty file or no file
// is a *ForeignError. The file is opened for writing, so that an index
// this process may not write fails here, before SQLite opens it.
func inspect(path string) (found, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return found{kind: kindNone}, nil
	case err != nil:
		return found{}, fmt.Errorf("reading the session index: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return found{}, &ForeignError{Path: path, Reason: "a symbolic link, which mcptrail does not follow"}
	case !fi.Mode().IsRegular():
		// Checked before the open, which could block on a pipe.
		return found{}, &ForeignError{Path: path, Reason: "not a regular file"}
	}
	m, err := readHeader(path, fi)
	if err != nil {
		return found{}, err
	}
	if m.app == 0 && m.pages > 0 && m.version == unmarkedVersion {
		if m.objects, err = objectsOf(path); err != nil {
			return found{}, err
		}
	}
	k, err := judge(path, m)
	if err != nil {
		return found{}, err
	}
	return found{kind: k, version: m.version, fi: fi}, nil
}

// headerSize is the size of an SQLite database's header; magic opens it.
const (
	headerSize = 100
	magic      = "SQLite format 3\x00"
)

// readHeader reads the header of the file at path, the regular file fi,
// without following a link: its application_id, user_version and whether
// it has any pages. A file that is not an SQLite database is a
// *ForeignError; a file other than fi, errChanged.
func readHeader(path string, fi os.FileInfo) (mark, error) {
	f, err := openNoFollow(path, os.O_RDWR, 0)
	switch {
	case isSymlinkErr(err):
		return mark{}, errChanged
	case errors.Is(err, fs.ErrNotExist), isSharingViolation(err):
		// Windows: a rename has the file open this moment; look again.
		return mark{}, errChanged
	case err != nil:
		return mark{}, fmt.Errorf("opening the session index: %w", err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		return mark{}, errChanged
	}
	var h [headerSize]byte
	n, err := io.ReadFull(f, h[:])
	switch {
	case n == 0 && err == io.EOF:
		return mark{}, nil
	case errors.Is(err, io.ErrUnexpectedEOF) || (err == nil && !bytes.Equal(h[:len(magic)], []byte(magic))):
		return mark{}, &ForeignError{Path: path, Reason: "not an SQLite database"}
	case err != nil:
		return mark{}, fmt.Errorf("reading the session index: %w", err)
	}
	return mark{
		app:     int32(binary.BigEndian.Uint32(h[68:])),
		version: int32(binary.BigEndian.Uint32(h[60:])),
		pages:   1,
	}, nil
}

// objectsOf reads the schema objects of the database at path through a
// read-only, immutable connection: it takes no lock, reads no journal or
// write-ahead log and writes nothing.
func objectsOf(path string) ([]string, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("immutable", "1")
	db, err := sql.Open("sqlite", dsn(path, q))
	if err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	defer db.Close()
	objects, err := readObjects(context.Background(), db)
	if err != nil {
		return nil, &ForeignError{Path: path, Reason: fmt.Sprintf("an SQLite database without mcptrail's mark whose schema does not read back: %v", short(err))}
	}
	return objects, nil
}

// querier is what readMark reads through: a connection or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readMark reads what judge needs of the database q reads, but for pages:
// SQLite counts one in a write transaction on an empty file.
func readMark(ctx context.Context, q querier) (mark, error) {
	var m mark
	for _, p := range []struct {
		pragma string
		dst    any
	}{{"application_id", &m.app}, {"user_version", &m.version}} {
		if err := q.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(p.dst); err != nil {
			return m, fmt.Errorf("reading the session index: %w", err)
		}
	}
	if m.app != 0 {
		return m, nil
	}
	var err error
	m.objects, err = readObjects(ctx, q)
	return m, err
}

// readObjects lists the schema objects of the database q reads.
func readObjects(ctx context.Context, q querier) ([]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT type || ':' || name FROM sqlite_schema ORDER BY 1")
	if err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("reading the session index: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the session index: %w", err)
	}
	return out, nil
}

// dsn is the SQLite URI of the database file at path with the query q.
func dsn(path string, q url.Values) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}
