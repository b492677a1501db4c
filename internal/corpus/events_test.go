package corpus

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// goldenEvent is the part of an analytics event the golden checks read.
type goldenEvent struct {
	EventType   string   `json:"event_type"`
	Rounds      int      `json:"rounds"`
	DurationMS  *float64 `json:"duration_ms"`
	WaitMS      *float64 `json:"wait_ms"`
	ToolMS      *float64 `json:"tool_ms"`
	Elicitation *struct {
		Status string `json:"status"`
	} `json:"elicitation"`
	Task *struct {
		ID string `json:"id"`
	} `json:"task"`
}

// TestEventsGoldens checks the golden event streams the corpus test
// compares against: every line is one event; no answer content appears
// (the goldens are written without --events-content); an MRTR operation is
// one event whose wait_ms + tool_ms is its duration; and each ledger row of
// the JSON export has exactly one create event, each answered row one
// response event. A task is one event, emitted when it is first seen
// terminal.
func TestEventsGoldens(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(transcriptDir, "*.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	mrtrOps := 0
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
		t.Run(name, func(t *testing.T) {
			golden := readGolden(t, name+".events.golden")
			if m := canaries.FindString(golden); m != "" {
				t.Errorf("events hold answer content %q", m)
			}
			var creates, responses, multiRound int
			for i, line := range strings.Split(strings.TrimSuffix(golden, "\n"), "\n") {
				if line == "" {
					continue
				}
				var e goldenEvent
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				switch e.EventType {
				case "mcp:elicitation/create":
					creates++
				case "mcp:elicitation/response":
					responses++
				default:
					if e.DurationMS == nil || e.WaitMS == nil || e.ToolMS == nil || e.Rounds < 1 {
						t.Fatalf("line %d: operation event without duration, wait, tool or rounds: %s", i+1, line)
					}
					if math.Abs(*e.WaitMS+*e.ToolMS-*e.DurationMS) > 1e-6 {
						t.Errorf("line %d: wait_ms %v + tool_ms %v != duration_ms %v", i+1, *e.WaitMS, *e.ToolMS, *e.DurationMS)
					}
					if e.Rounds > 1 || e.Task != nil {
						multiRound++ // a task's event may come before its last round
					}
				}
			}
			var doc struct {
				Operations []struct {
					Status string           `json:"status"`
					Rounds []jsontext.Value `json:"rounds"`
					Task   jsontext.Value   `json:"task"`
				} `json:"operations"`
				Elicitations []struct {
					Status string `json:"status"`
				} `json:"elicitations"`
			}
			if err := json.Unmarshal([]byte(readGolden(t, name+".json.golden")), &doc); err != nil {
				t.Fatal(err)
			}
			wantResponses, wantMulti := 0, 0
			for _, r := range doc.Elicitations {
				if r.Status == "answered" || r.Status == "error" {
					wantResponses++
				}
			}
			for _, op := range doc.Operations {
				if op.Status != "input-required" && op.Status != "pending" && (len(op.Rounds) > 1 || op.Task != nil) {
					wantMulti++
				}
			}
			if creates != len(doc.Elicitations) || responses != wantResponses {
				t.Errorf("%d create and %d response events; the ledger has %d rows, %d answered", creates, responses, len(doc.Elicitations), wantResponses)
			}
			if multiRound != wantMulti {
				t.Errorf("%d multi-round operation events, want %d (one per completed MRTR operation)", multiRound, wantMulti)
			}
			mrtrOps += multiRound
		})
	}
	if mrtrOps < 5 {
		t.Errorf("the corpus has %d completed MRTR operations, want at least 5", mrtrOps)
	}
}

// TestEventsContentCanary answers elicitations with distinctive strings
// (elicit-seed and legacy-url-required submit canaries) and looks for them
// in every sink: export -T events and -T otlp, and what a local HTTP server
// (--events-url) and a real OTLP receiver (--otlp-endpoint) receive from
// the live proxy. Without --events-content no canary appears; with it,
// every one appears, except those a redaction rule matches.
func TestEventsContentCanary(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"elicit-seed", "legacy-url-required"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(transcriptDir, name+".transcript.jsonl")
			tr, err := transcript.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			raw := filepath.Join(dir, "capture.jsonl")
			runThroughTap(t, tr, path, raw, name)
			submitted := canaries.FindAllString(string(readTranscriptAnswers(t, tr)), -1)
			if len(submitted) == 0 {
				t.Fatal("the transcript submits no canary")
			}
			for _, tc := range []struct {
				name   string
				args   []string
				absent func(string) bool // which canaries must not appear
			}{
				{"shapes", nil, func(string) bool { return true }},
				{"content", []string{"--events-content"}, func(string) bool { return false }},
				{"content-redact-value", []string{"--events-content", "--redact-value", `[A-Z]+-CANARY[-a-z]*`},
					func(c string) bool { return strings.Contains(c, "-CANARY") }},
				{"content-redact-answers", []string{"--events-content", "--redact-answers"}, func(string) bool { return true }},
			} {
				outs := map[string]string{}
				for _, format := range []string{"events", "otlp"} {
					args := append([]string{"export", "-T", format}, tc.args...)
					out, err := exec.Command(testBinary, append(args, raw)...).Output()
					if err != nil {
						t.Fatalf("%s: export -T %s: %v", tc.name, format, err)
					}
					outs["export -T "+format] = string(out)
				}
				outs["live --events-url"], outs["live --otlp-endpoint"] = runLiveSinks(t, tr, path, tc.args...)
				for sink, out := range outs {
					for _, c := range submitted {
						if got, absent := strings.Contains(out, c), tc.absent(c); got == absent {
							t.Errorf("%s: canary %q in %s: %v, want %v", tc.name, c, sink, got, !absent)
						}
					}
				}
			}
		})
	}
}

// readTranscriptAnswers returns the client frames of tr that answer an
// elicitation (an MRTR retry's inputResponses or a legacy result with an
// action), concatenated.
func readTranscriptAnswers(t *testing.T, tr *transcript.Transcript) []byte {
	t.Helper()
	var out []byte
	for _, f := range tr.Frames {
		s := string(f.Raw)
		if f.Dir == transcript.C2S && (strings.Contains(s, `"inputResponses"`) || strings.Contains(s, `"action"`)) {
			out = append(out, f.Raw...)
		}
	}
	return out
}

// TestEventsLiveMatchesExport runs every corpus transcript through the
// proxy with --events-file and checks that the live event stream is, byte
// for byte, the one `export -T events` derives from the same capture
// afterwards.
func TestEventsLiveMatchesExport(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(transcriptDir, "*.transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 14 {
		t.Fatalf("found %d transcripts, want at least 14", len(paths))
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".transcript.jsonl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr, err := transcript.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			raw, live := filepath.Join(dir, "capture.jsonl"), filepath.Join(dir, "events.jsonl")
			playThroughProxy(t, tr, path, "--capture", raw, "--label", name, "--events-file", live)
			got, err := os.ReadFile(live)
			if err != nil {
				t.Fatal(err)
			}
			want, err := exec.Command(testBinary, "export", "-T", "events", raw).Output()
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatal("the export holds no events")
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("live events (+) differ from the export's (-):\n%s", diff)
			}
			if fi, err := os.Stat(live); err == nil && fi.Mode().Perm() != 0o600 {
				t.Errorf("events file mode %v, want 0600", fi.Mode().Perm())
			}
			h, recs, _, err := capture.ReadFile(raw)
			if err != nil || h == nil {
				t.Fatal(err)
			}
			var note string
			for _, r := range recs {
				if r.Type == capture.TypeNote && r.Note == "events" {
					note = r.Text
				}
			}
			if !strings.Contains(note, "0 capture records dropped") {
				t.Errorf("events note = %q, want one reporting no drops", note)
			}
		})
	}
}
