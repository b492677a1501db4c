package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// FileName is the index's file name in the state directory.
const FileName = "index.db"

// schemaVersion is stored as the database's user_version; an index of
// another version is moved aside and made anew. Bump it whenever the
// schema or what is extracted from a capture changes (3: sessions.calls
// counts the client's calls only, server_requests the server's; 4:
// calls.server marks the groups of the server's requests).
const schemaVersion = 4

const schema = `
CREATE TABLE IF NOT EXISTS files(
	path TEXT PRIMARY KEY,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	error TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS sessions(
	sid INTEGER PRIMARY KEY,
	path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
	ord INTEGER NOT NULL,
	id TEXT NOT NULL, label TEXT NOT NULL, transport TEXT NOT NULL, target TEXT NOT NULL,
	tool_version TEXT NOT NULL,
	start INTEGER NOT NULL, "end" INTEGER NOT NULL, ended INTEGER NOT NULL,
	records INTEGER NOT NULL, frames INTEGER NOT NULL, bytes INTEGER NOT NULL,
	calls INTEGER NOT NULL, server_requests INTEGER NOT NULL, errors INTEGER NOT NULL, asked INTEGER NOT NULL,
	client_name TEXT NOT NULL, client_version TEXT NOT NULL,
	elicit_form INTEGER NOT NULL, elicit_url INTEGER NOT NULL,
	server_name TEXT NOT NULL, server_version TEXT NOT NULL,
	damage BLOB NOT NULL, header BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_path ON sessions(path);
CREATE INDEX IF NOT EXISTS sessions_start ON sessions(start);
CREATE TABLE IF NOT EXISTS calls(
	sid INTEGER NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
	method TEXT NOT NULL, target TEXT NOT NULL, server INTEGER NOT NULL,
	calls INTEGER NOT NULL, errors INTEGER NOT NULL,
	durations BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS calls_sid ON calls(sid);
CREATE TABLE IF NOT EXISTS ledger(
	sid INTEGER NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
	root_method TEXT NOT NULL, tool TEXT NOT NULL, key TEXT NOT NULL, message TEXT NOT NULL,
	mode TEXT NOT NULL, era TEXT NOT NULL, action TEXT NOT NULL, status TEXT NOT NULL,
	asked INTEGER NOT NULL, elapsed_ms REAL NOT NULL, wait_ms REAL NOT NULL, op_ms REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_sid ON ledger(sid);
CREATE TABLE IF NOT EXISTS answers(
	sid INTEGER NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
	tool TEXT NOT NULL, question TEXT NOT NULL, mode TEXT NOT NULL,
	asked INTEGER NOT NULL, accept INTEGER NOT NULL, decline INTEGER NOT NULL, cancel INTEGER NOT NULL,
	pending INTEGER NOT NULL, elapsed BLOB NOT NULL, wait_ms REAL NOT NULL, op_ms REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_sid ON answers(sid);
CREATE TABLE IF NOT EXISTS catalog(
	sid INTEGER NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
	kind TEXT NOT NULL, key TEXT NOT NULL, hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS catalog_sid ON catalog(sid);
CREATE TABLE IF NOT EXISTS findings(
	sid INTEGER NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
	rule TEXT NOT NULL, severity TEXT NOT NULL, n INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_sid ON findings(sid);
`

// Index is an open session index. It is not safe for concurrent use; two
// processes may share the file (SQLite locks it, and a writer waits).
type Index struct {
	db   *sql.DB
	path string
	// file is the identity of the index file, as found before SQLite
	// opened it; nil for an index in memory.
	file os.FileInfo
	// warn reports an index moved aside, one line.
	warn func(string)
	// rules grades the findings counted (SetRules); nil until first
	// needed, then rules.Default.
	rules *finding.Registry
}

// Open opens (creating it, 0600 in a 0700 directory) the index in the
// state directory. The index is marked as mcptrail's (application_id);
// Open never lets SQLite open, and never changes, deletes or follows, a
// file there that is not: it returns a *ForeignError naming it, as for a
// write-ahead log beside the index (which never has one) or a link. An
// index of ours of another schema version, or one that cannot be read,
// is moved to index.db.old (replacing an earlier one of ours) and made
// anew; warn gets a one-line message saying so.
func Open(state string, warn func(string)) (*Index, error) {
	if warn == nil {
		warn = func(string) {}
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		return nil, fmt.Errorf("creating the state directory: %w", err)
	}
	ix := &Index{path: filepath.Join(state, FileName), warn: warn}
	if err := ix.openFile(); err != nil {
		return nil, err
	}
	return ix, nil
}

// Path returns the index file's path; "" for an index in memory.
func (ix *Index) Path() string { return ix.path }

// Close closes the database.
func (ix *Index) Close() error {
	if ix.db == nil {
		return nil
	}
	err := ix.db.Close()
	ix.db = nil
	return err
}

// OpenMemory opens an index that lives in memory only, for a reader that
// cannot write the state directory: it is built anew each time.
func OpenMemory() (*Index, error) {
	ix := &Index{warn: func(string) {}}
	if err := ix.open(nil); err != nil {
		return nil, err
	}
	return ix, nil
}

// open connects to the index file admit found (fi; nil: an index in
// memory) and prepares it.
func (ix *Index) open(fi os.FileInfo) error {
	q := url.Values{}
	// Only pragmas of the connection: none reads or writes the file (the
	// journal mode is the default, DELETE, which every index has).
	for _, p := range []string{"busy_timeout(10000)", "foreign_keys(1)", "synchronous(OFF)"} {
		q.Add("_pragma", p)
	}
	// A transaction takes the write lock when it begins (waiting its
	// turn), not when it first writes: two processes' transactions can
	// then never deadlock, each holding the read lock the other waits on.
	q.Set("_txlock", "immediate")
	name := "file::memory:?" + q.Encode()
	if ix.path != "" {
		name = dsn(ix.path, q)
	}
	ix.file = fi
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return fmt.Errorf("opening the session index: %w", err)
	}
	db.SetMaxOpenConns(1)
	ix.db = db
	if err := ix.prepare(); err != nil {
		_ = ix.Close()
		return err
	}
	return nil
}

// prepare checks, in one transaction holding the write lock, that the
// file is still the one admit found and ours, and creates the schema in
// an empty one: of several processes opening a new index at once, one
// creates it and the others find it made.
func (ix *Index) prepare() error {
	ctx := context.Background()
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("opening the session index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	m, err := readMark(ctx, tx)
	if err != nil {
		return err
	}
	if ix.file != nil {
		// The size under the write lock: 0 is an empty file no one writes.
		now, err := os.Lstat(ix.path)
		if err != nil || !os.SameFile(ix.file, now) {
			return errChanged
		}
		m.pages = int(min(now.Size(), 1))
	}
	k, err := judge(ix.path, m)
	switch {
	case err != nil:
		return err
	case k == kindEmpty:
		err = create(ctx, tx)
	case m.version != schemaVersion:
		return errStale
	case k == kindUnmarked:
		err = markOurs(ctx, tx)
	}
	if err != nil {
		return err
	}
	// A cheap probe that the tables read back.
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM files").Scan(&n); err != nil {
		return fmt.Errorf("reading the session index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("creating the session index: %w", err)
	}
	return nil
}

// create makes the schema in an empty database and marks it as ours.
func create(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating the session index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return fmt.Errorf("creating the session index: %w", err)
	}
	return markOurs(ctx, tx)
}

// markOurs marks the database as a session index of mcptrail.
func markOurs(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
		return fmt.Errorf("marking the session index: %w", err)
	}
	return nil
}

// reset moves the index file aside (it could not be read: cause) and
// opens it anew, with a warning.
func (ix *Index) reset(cause error) error {
	_ = ix.Close()
	if ix.path == "" {
		return ix.open(nil)
	}
	if err := ix.moveAside(ix.file, fmt.Sprintf("was unreadable (%v)", short(cause))); err != nil {
		return err
	}
	return ix.openFile()
}

// short is err's innermost message, for the one-line warning.
func short(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// Corrupt reports whether err says the database file is damaged or is not
// a database.
func Corrupt(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT:
		return true
	}
	return false
}

// retry runs fn; when it fails because the database is damaged, the index
// is rebuilt empty (with the warning) and fn runs once more.
func (ix *Index) retry(fn func() error) error {
	err := fn()
	if err == nil || !Corrupt(err) {
		return err
	}
	if err := ix.reset(err); err != nil {
		return err
	}
	return fn()
}
