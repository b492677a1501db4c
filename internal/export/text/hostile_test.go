package textexport

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// evil is what a hostile peer puts in every field (testbin.Evil).
const evil = testbin.Evil

// TestHostileFields fills every string of a snapshot and a frame with
// evil (and feeds two evil stderr lines) and checks that the full export,
// the summary and the ledger table show none of it raw, and keep one line
// per row.
func TestHostileFields(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	id := wire.StringID("id" + evil)
	snap := &store.Snapshot{
		Session: store.Session{ID: "s" + evil, Label: "l" + evil, Transport: evil, Command: []string{"srv", evil}, Target: evil,
			ToolVersion: evil, Eras: []string{evil}, ProtocolVersions: []string{evil},
			Client: store.Peer{Name: evil, Version: evil}, Server: store.Peer{Name: evil, Version: evil}},
		Calls: store.CallsOf([]store.Call{{Dir: capture.Dir(evil), ID: id, Method: evil, Target: evil, Era: evil, Status: evil, Operation: 0,
			Parent: 0, Attribution: evil, Error: &store.CallError{Message: evil}, ResultType: evil, ResponseSeq: 2}}),
		Operations: store.ListOf([]store.Operation{{Method: evil, Target: evil, RootID: id, Status: evil,
			Rounds: []store.Round{{ID: id, Pairing: evil, InputRequests: []store.InputRequest{{Key: evil, Method: evil}}}}}}),
		Summary:  store.Summary{Methods: []store.Stat{{Name: evil}}, Tools: []store.Stat{{Name: evil}}},
		Findings: store.FindingsOf([]finding.Finding{{Rule: "r", Message: evil}}),
		Ledger: store.ListOf([]store.LedgerRow{{Root: store.LedgerRoot{Method: evil, Target: evil, ID: id}, Era: store.LedgerMRTR, Key: evil,
			Mode: evil, Message: evil, Fields: []store.LedgerField{{Name: evil, Type: evil}}, Action: evil,
			ElicitationID: evil, Observations: []string{evil}, Operation: -1}, {Host: evil, Operation: -1}}),
	}
	var full, short, ledger bytes.Buffer
	w := New(&full, &capture.Record{SessionID: evil, Label: evil, Time: t0}, nil)
	w.Frame(&store.Frame{Seq: 1, Dir: capture.Dir(evil), Kind: store.KindInvalid, ID: id, Method: evil, Problem: evil, Call: -1,
		Record: &capture.Record{Text: evil}})
	w.Stderr(&store.StderrLine{Index: 0, Record: &capture.Record{Type: capture.TypeStderr, Text: evil}})
	w.Stderr(&store.StderrLine{Index: 1, Record: &capture.Record{Type: capture.TypeStderr, B64: []byte(evil + "\xff")}})
	w.Frame(&store.Frame{Seq: 2, Kind: store.KindHTTPStatus, Call: 0, Record: &capture.Record{HTTP: &capture.HTTP{Method: evil, Path: evil}}})
	if err := w.Finish(snap); err != nil {
		t.Fatal(err)
	}
	if err := Summary(&short, snap); err != nil {
		t.Fatal(err)
	}
	ledgerRows := snap.Ledger.Slice()
	rows := []LedgerLine{{Session: evil, Row: &ledgerRows[0]}, {Row: &ledgerRows[1]}}
	if err := WriteLedger(&ledger, rows, Layout{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"export": full.String(), "summary": short.String(), "ledger": ledger.String()} {
		for i, r := range out {
			if (r == utf8.RuneError) || (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || isBidiControl(r) {
				t.Errorf("%s holds %U at byte %d", name, r, i)
				break
			}
		}
		if !strings.Contains(out, `\x1b]0;pwned\x07`) && !strings.Contains(out, `\x1b]0;pwned\a`) {
			t.Errorf("%s does not show the escaped title sequence:\n%s", name, out)
		}
	}
	if n := strings.Count(ledger.String(), "\n"); n != 3 {
		t.Errorf("the ledger table has %d lines, want a header and two rows:\n%s", n, ledger.String())
	}
}

func isBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
