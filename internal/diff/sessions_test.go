package diff

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

const corpusDir = "../../testdata/transcripts"

// TestIdentical compares every corpus transcript with itself: nothing
// differs, every call is matched.
func TestIdentical(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 14 {
		t.Fatalf("found %d corpus transcripts, want at least 14", len(paths))
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			a, b := loadTranscript(t, path), loadTranscript(t, path)
			r, err := Sessions(a, b, Options{SlowerThan: 2})
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if r.Differs() || !strings.HasSuffix(text.String(), "\nno differences\n") {
				t.Errorf("a session differs from itself:\n%s", text.String())
			}
			if r.Calls.Matched != r.A.Calls || r.A.Calls != r.B.Calls {
				t.Errorf("matched %d of %d and %d calls, want all", r.Calls.Matched, r.A.Calls, r.B.Calls)
			}
		})
	}
}

// pair is two sessions to compare: transcripts (a path, or a path and the
// number of its first frames to keep).
type pair struct {
	name string
	a, b string
	// keepA, when set, keeps only the first frames of a (the session as
	// it stood then).
	keepA int
}

// TestPairs compares pairs of corpus transcripts and checks the text and
// JSON reports against golden files (refresh with -update).
func TestPairs(t *testing.T) {
	t.Parallel()
	pairs := []pair{
		// The shared fixture against a build whose tool results, errors,
		// questions and answers changed, under other ids.
		{name: "elicit-seed-changed", a: corpusDir + "/elicit-seed.transcript.jsonl", b: "testdata/elicit-seed-changed.transcript.jsonl"},
		// The catalog as first listed against the catalog after the drift.
		{name: "catalog-drift", a: corpusDir + "/catalog-drift.transcript.jsonl", keepA: 15, b: corpusDir + "/catalog-drift.transcript.jsonl"},
		// Two legacy servers: the handshake matches, the rest does not.
		{name: "legacy-servers", a: corpusDir + "/legacy-2025-11-25.transcript.jsonl", b: corpusDir + "/legacy-url-required.transcript.jsonl"},
		// Two MRTR sessions with nothing in common but the method.
		{name: "mrtr-chain-tampered", a: corpusDir + "/mrtr-chain.transcript.jsonl", b: corpusDir + "/mrtr-tampered-state.transcript.jsonl"},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			ta, nameA := readTranscript(t, p.a), sessionName(p.a)
			if p.keepA > 0 {
				ta.Frames = ta.Frames[:p.keepA]
				nameA += "-first-" + strconv.Itoa(p.keepA)
			}
			a := snapshotOf(t, captureOf(t, ta, nameA))
			b := snapshotOf(t, captureOf(t, readTranscript(t, p.b), sessionName(p.b)))
			r, err := Sessions(a, b, Options{SlowerThan: 2})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Differs() {
				t.Error("Differs() = false, want true")
			}
			var text, js bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := r.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "pairs", p.name+".txt.golden"), text.String())
			golden.Check(t, filepath.Join("testdata", "pairs", p.name+".json.golden"), js.String())
		})
	}
}

// sessionName names a session after its transcript file.
func sessionName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
}

func readTranscript(t *testing.T, path string) *transcript.Transcript {
	t.Helper()
	tr, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestChangedCalls spells out what the golden of elicit-seed-changed
// shows of the calls: matched whatever their ids, a result's changed
// member by path, an error that appeared, one that went away, and the
// MRTR operation that became slower (its tool time, not the human's wait).
func TestChangedCalls(t *testing.T) {
	t.Parallel()
	a := loadTranscript(t, corpusDir+"/elicit-seed.transcript.jsonl")
	b := loadTranscript(t, "testdata/elicit-seed-changed.transcript.jsonl")
	r, err := Sessions(a, b, Options{SlowerThan: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := Calls{
		Matched: 3, Operations: 3,
		Changed: []CallDelta{{
			CallRef: CallRef{Method: "tools/call", Target: "create_account", Arguments: "{}", Index: 0, Seq: 1}, BIndex: 0,
			OldStatus: "ok", NewStatus: "ok", OldRounds: 2, NewRounds: 2,
			Result: []Delta{
				{Path: "/content/0/text", Op: OpChanged, Old: `"account created"`, New: `"account created (pending review)"`},
				{Path: "/structuredContent", Op: OpAdded, New: `{"review":true}`},
			},
		}, {
			CallRef: CallRef{Method: "tools/call", Target: "sync_calendar", Arguments: "{}", Index: 2, Seq: 5}, BIndex: 2,
			OldStatus: "ok", NewStatus: "error", OldRounds: 2, NewRounds: 2,
			Error: ErrorAppeared, NewError: "-32603 calendar backend down",
		}, {
			CallRef: CallRef{Method: "tools/call", Target: "login_legacy", Arguments: "{}", Index: 4, Seq: 9}, BIndex: 4,
			OldStatus: "tool-error", NewStatus: "ok", OldRounds: 2, NewRounds: 2,
			Error: ErrorGone, OldError: "tool error",
			Result: []Delta{
				{Path: "/content/0/text", Op: OpChanged, Old: `"cannot continue"`, New: `"logged in"`},
				{Path: "/isError", Op: OpRemoved, Old: "true"},
			},
		}},
		OnlyB: []CallRef{{Method: "tools/call", Target: "whoami", Arguments: `{"verbose":true}`, Index: 6, Seq: 13}},
		Slower: []Slower{{CallRef: CallRef{Method: "tools/call", Target: "login_legacy", Arguments: "{}", Index: 4, Seq: 9},
			BIndex: 4, OldMS: 40, NewMS: 420}},
	}
	if diff := cmp.Diff(want, r.Calls, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantLedger := []QuestionDelta{{
		Method: "tools/call", Target: "create_account", Key: "profile", Change: QuestionChanged,
		Message: "Choose a username and a contact email",
		Changes: []Change{
			{What: ChangeMessage, Old: "Choose a username and give a contact email", New: "Choose a username and a contact email"},
			{What: ChangeField, Field: "phone", New: "string"},
		},
	}, {
		Method: "tools/call", Target: "login_legacy", Key: "creds", Change: QuestionChanged,
		Message: "Enter your admin password to continue",
		Changes: []Change{{What: ChangeAction, Old: "decline", New: "accept"}},
	}}
	if diff := cmp.Diff(wantLedger, r.Ledger); diff != "" {
		t.Errorf("ledger (-want +got):\n%s", diff)
	}
}

// TestOrderAndIDs checks that calls match by method, target and
// arguments: other ids, another order and other timings (under the
// factor) are no difference.
func TestOrderAndIDs(t *testing.T) {
	t.Parallel()
	tr := readTranscript(t, corpusDir+"/elicit-seed.transcript.jsonl")
	moved := &transcript.Transcript{}
	// The sync_calendar operation (frames 4-7) first, then the others,
	// each id a string, each delay 1.5 times as long.
	for _, i := range []int{4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11} {
		f := tr.Frames[i]
		f.AfterMS *= 1.5
		f.Raw = renumber(f.Raw)
		moved.Frames = append(moved.Frames, f)
	}
	a := snapshotOf(t, captureOf(t, tr, "A"))
	b := snapshotOf(t, captureOf(t, moved, "B"))
	r, err := Sessions(a, b, Options{SlowerThan: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Differs() {
		var text bytes.Buffer
		_ = r.WriteText(&text)
		t.Errorf("reordered and renumbered session differs:\n%s", text.String())
	}
	if r.Calls.Matched != 3 {
		t.Errorf("matched %d calls, want 3", r.Calls.Matched)
	}
}

// renumber turns the integer ids 1-6 of a frame into strings.
func renumber(raw []byte) []byte {
	out := raw
	for i := 1; i <= 6; i++ {
		n := strconv.Itoa(i)
		out = bytes.ReplaceAll(out, []byte(`"id":`+n+`,`), []byte(`"id":"r-`+n+`",`))
	}
	return slices.Clone(out)
}

// TestSkillsDiffer diffs the corpus's skills server against its next
// version: each skill added, removed or changed is a catalog delta, and a
// changed one carries what the skill drift rules make of it (a file's
// digest and size, files added and removed).
func TestSkillsDiffer(t *testing.T) {
	t.Parallel()
	a := loadTranscript(t, "../../testdata/transcripts/skills-verified.transcript.jsonl")
	b := loadTranscript(t, "../../testdata/drift/skills-v2.transcript.jsonl")
	rep, err := Sessions(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Catalog {
		got = append(got, d.Kind+" "+d.Key+" "+d.Change)
		for _, c := range d.Drift {
			got = append(got, "  "+c.Kind+" "+c.What)
		}
	}
	want := []string{
		"skill skill://acme/billing/refunds/SKILL.md changed",
		`  skill-changed file "skill://acme/billing/refunds/examples/email.md"`,
		`  skill-changed file "skill://acme/billing/refunds/scripts/payout.sh"`,
		`  skill-changed file "skill://acme/billing/refunds/assets/logo.png"`,
		"skill skill://git-workflow/SKILL.md removed",
		"skill skill://onboarding/SKILL.md added",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("catalog deltas (-want +got):\n%s", diff)
	}
}
