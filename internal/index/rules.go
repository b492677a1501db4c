package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// SetRules makes the index grade the findings it counts with reg (the
// user's [rules]) instead of rules.Default; nil means rules.Default. The
// index keys what it holds by the registry's fingerprint (each rule's id,
// whether it is on, its severity): the next Sync or Update that finds the
// index made with other rules drops every file from it, so that Sync
// reads them all again graded by reg. reg must not change afterwards.
func (ix *Index) SetRules(reg *finding.Registry) { ix.rules = reg }

// registry returns the registry the index grades with.
func (ix *Index) registry() *finding.Registry {
	if ix.rules == nil {
		ix.rules = rules.Default()
	}
	return ix.rules
}

// Fingerprint returns what identifies how reg grades: a hash of each
// rule's id, on or off, and effective severity, in registry order.
func Fingerprint(reg *finding.Registry) string {
	h := sha256.New()
	for _, r := range reg.Rules() {
		fmt.Fprintf(h, "%s %t %s\n", r.ID, reg.Enabled(r.ID), reg.Severity(r.ID))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// metaSchema is the table keyRules keeps the fingerprint in. It is made
// only when an index is first graded with rules other than rules.Default,
// so that an index graded with the defaults is the schema it always was.
const metaSchema = `CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`

// keyRules drops every file from the index when it was graded with rules
// other than the index's registry, and records the registry's
// fingerprint. An index without one was graded with rules.Default.
func (ix *Index) keyRules(ctx context.Context) error {
	want := Fingerprint(ix.registry())
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("reading the session index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	got, err := storedFingerprint(ctx, tx)
	if err != nil {
		return err
	}
	if got == "" {
		got = Fingerprint(rules.Default())
	}
	if got == want {
		return nil
	}
	for _, q := range []string{metaSchema, `DELETE FROM files`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("updating the session index: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('rules', ?)`, want); err != nil {
		return fmt.Errorf("updating the session index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("updating the session index: %w", err)
	}
	return nil
}

// storedFingerprint returns the fingerprint of the rules the index was
// graded with, "" when it holds none.
func storedFingerprint(ctx context.Context, tx *sql.Tx) (string, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).Scan(&n); err != nil {
		return "", fmt.Errorf("reading the session index: %w", err)
	}
	if n == 0 {
		return "", nil
	}
	var fp string
	err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'rules'`).Scan(&fp)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the session index: %w", err)
	}
	return fp, nil
}
