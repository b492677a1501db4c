package cli

import (
	"database/sql"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSQLExec runs SQL statements on the SQLite database FILE, creating it,
// so a script can make a database mcptrail did not make, or age the one it
// did: `sqlexec FILE STATEMENT...`.
func cmdSQLExec(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: sqlexec FILE STATEMENT...")
	}
	db, err := sql.Open("sqlite", ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("sqlexec: %v", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range args[1:] {
		if _, err := db.Exec(s); err != nil {
			ts.Fatalf("sqlexec %q: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		ts.Fatalf("sqlexec: %v", err)
	}
}
