package session_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
)

const root = "../.."

// open returns a reader of the capture at path (relative to the module).
func open(t *testing.T, path string) *capture.Reader {
	t.Helper()
	f, err := os.Open(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return reader(t, f)
}

func reader(t *testing.T, in io.Reader) *capture.Reader {
	t.Helper()
	r, err := capture.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// nullReused is a capture of a null-id request, a call never answered
// whose id a second call reuses, and a duplicate response, ended cleanly.
const nullReused = `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"s","transport":"stdio"}
{"type":"frame","seq":1,"time":"2026-07-28T09:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":null,"method":"tools/list"}}
{"type":"stderr","time":"2026-07-28T09:00:00Z","text":"starting"}
{"type":"frame","seq":2,"time":"2026-07-28T09:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a"}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:00:02Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"b"}}}
{"type":"frame","seq":4,"time":"2026-07-28T09:00:03Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":7,"result":{"content":[]}}}
{"type":"frame","seq":5,"time":"2026-07-28T09:00:04Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":7,"result":{"content":[]}}}
{"type":"end","time":"2026-07-28T09:00:05Z"}
`

type located struct {
	Rule     string
	Severity finding.Severity
	Seq      uint64
	Line     int
}

func findings(s *store.Snapshot) []located {
	var out []located
	for f := range s.Findings.All() {
		out = append(out, located{f.Rule, f.Severity, f.Seq, f.Line})
	}
	return out
}

// TestLoadGradesAndLocates checks that Load grades with the registry it is
// given (a disabled rule's findings dropped, a re-graded one at its new
// severity) and that every finding carries its capture line, the lazily
// made unanswered-request one too.
func TestLoadGradesAndLocates(t *testing.T) {
	t.Parallel()
	s, err := session.Load(reader(t, strings.NewReader(nullReused)), &session.Options{Rules: rules.Default()})
	if err != nil {
		t.Fatal(err)
	}
	want := []located{
		{finding.NullID, finding.Error, 1, 2},
		{finding.UnansweredRequest, finding.Warning, 2, 4},
		{finding.IDReused, finding.Error, 3, 5},
		{finding.DuplicateResponse, finding.Error, 5, 7},
	}
	if diff := cmp.Diff(want, findings(s.Snapshot)); diff != "" {
		t.Errorf("default rules (-want +got):\n%s", diff)
	}

	reg := rules.Default()
	if err := reg.Disable(finding.NullID); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetSeverity(finding.UnansweredRequest, finding.Error); err != nil {
		t.Fatal(err)
	}
	s, err = session.Load(reader(t, strings.NewReader(nullReused)), &session.Options{Rules: reg})
	if err != nil {
		t.Fatal(err)
	}
	want = []located{
		{finding.UnansweredRequest, finding.Error, 2, 4},
		{finding.IDReused, finding.Error, 3, 5},
		{finding.DuplicateResponse, finding.Error, 5, 7},
	}
	if diff := cmp.Diff(want, findings(s.Snapshot)); diff != "" {
		t.Errorf("null-id disabled, unanswered-request an error (-want +got):\n%s", diff)
	}
}

// TestLoadReadsTheAuthFlowOnce checks Session.Auth is the flow oauth.Read
// finds with a tracker of its own, with the rules' checks or without.
func TestLoadReadsTheAuthFlowOnce(t *testing.T) {
	t.Parallel()
	const capt = "testdata/oauth/oauth-clean.capture.jsonl"
	var tr oauth.Tracker
	snap, err := store.Load(open(t, capt), &store.Options{OnFrame: tr.Track})
	if err != nil {
		t.Fatal(err)
	}
	want := oauth.Read(snap, &tr)
	if len(want.Flows) == 0 {
		t.Fatal("the fixture holds no flow")
	}
	for name, opts := range map[string]*session.Options{
		"rules":     {Rules: rules.Default()},
		"no checks": {NoChecks: true},
		"nil":       nil,
	} {
		s, err := session.Load(open(t, capt), opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, s.Auth); diff != "" {
			t.Errorf("%s: Auth (-want +got):\n%s", name, diff)
		}
	}
}
