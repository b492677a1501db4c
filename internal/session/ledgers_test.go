package session_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/session"
)

// tablesSessions is a sessions directory of real captures with
// elicitations (the CLI's table tests read it too).
const tablesSessions = root + "/internal/cli/testdata/tables/state/sessions"

func TestLedgersReadsEveryStoredSession(t *testing.T) {
	files, err := capture.SessionFiles(tablesSessions)
	if err != nil || len(files) == 0 {
		t.Fatalf("SessionFiles = %v, %v", files, err)
	}
	skip := func(p string, err error) { t.Errorf("skipped %s: %v", p, err) }
	ls, err := session.Ledgers(tablesSessions, nil, nil, skip)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	rows := 0
	for _, l := range ls {
		paths = append(paths, l.Path)
		rows += len(l.Rows)
		if l.ID == "" {
			t.Errorf("%s: a ledger with no session id", l.Path)
		}
	}
	if diff := cmp.Diff(files, paths); diff != "" {
		t.Errorf("paths, newest first (-want +got):\n%s", diff)
	}
	if rows == 0 {
		t.Error("no ledger rows in captures that hold elicitations")
	}
}

func TestLedgersSkipsWhatIsNoCapture(t *testing.T) {
	dir, _, newer := sessionsDir(t)
	bad := write(t, dir, "20260730T090000.000000Z-c-dddd4444.jsonl", "not a capture\n")
	var skipped []string
	ls, err := session.Ledgers(dir, nil, nil, func(p string, _ error) { skipped = append(skipped, p) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{bad}, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	var got []string
	for _, l := range ls {
		got = append(got, filepath.Base(l.Path)+" "+l.ID)
	}
	want := []string{
		filepath.Base(newer) + " cccc3333", filepath.Base(newer) + " aaab2222",
		"20260728T090000.000000Z-a-aaaa1111.jsonl aaaa1111",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ledgers (-want +got):\n%s", diff)
	}
}

func TestFileLedgersReportsDamage(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "x-eeee5555.jsonl", capt("eeee5555")+"{torn\n")
	var damaged []string
	ls, err := session.FileLedgers(p, nil, func(path string, d capture.Damage) {
		if d.String() != "" {
			damaged = append(damaged, path)
		}
	})
	if err != nil || len(ls) != 1 || ls[0].ID != "eeee5555" {
		t.Fatalf("FileLedgers = %+v, %v; want the one session", ls, err)
	}
	if diff := cmp.Diff([]string{p}, damaged); diff != "" {
		t.Errorf("damage reported for (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
}
