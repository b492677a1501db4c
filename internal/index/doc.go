// Package index keeps the session index: an SQLite database in the state
// directory (index.db, pure Go, no cgo) that holds, for each capture in
// the sessions folder, what `sessions`, `stats` and `prune` need without
// reading the capture again: the session header, counts, errors, the
// calls grouped by method and target with their durations, the
// elicitation ledger rows (never a submitted value: a ledger row has none),
// the catalog hashes and the findings by rule.
//
// The index is a cache and the captures stay the record. A capture is
// indexed when its session ends and, lazily, when a reader finds one it
// has not seen or one whose size or modification time changed; rows of a
// capture that is gone are dropped. Deleting the index loses nothing; an
// unreadable one, or one of another schema version, is moved aside to
// index.db.old (one at most) and rebuilt, with a one-line warning.
// Everything it holds comes from the store's snapshot of the capture,
// graded by the default rules registry: nothing is correlated here.
//
// The index is marked as mcptrail's (PRAGMA application_id), and a file at
// its place that is not (another program's database, any other file, a
// symbolic link, a write-ahead log beside it) is never opened by SQLite,
// changed, deleted or followed: Open returns a *ForeignError naming it.
// Processes may open one index at once: SQLite locks the file, and the
// ones moving an old index aside take turns on a lock of the directory.
package index
