package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

const driftDir = "../../testdata/drift"

// driftPair is one pair of pairs.toml: base's catalog pinned, session
// checked against it, with the drift findings it must raise.
type driftPair struct {
	Base     string         `toml:"base"`
	Session  string         `toml:"session"`
	Intent   string         `toml:"intent"`
	Findings map[string]int `toml:"findings"`
}

func loadDriftPairs(t *testing.T) []driftPair {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(driftDir, "pairs.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Pair []driftPair `toml:"pair"`
	}
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("decoding pairs.toml: %v", err)
	}
	for _, p := range doc.Pair {
		if strings.TrimSpace(p.Intent) == "" {
			t.Errorf("pair %s--%s has no intent", p.Base, p.Session)
		}
	}
	return doc.Pair
}

// TestDriftPairs pins the catalog of each pair's base transcript, played
// through the real proxy, with mcptrail tools --save-baseline, checks the
// session transcript's capture with check --tools-baseline, and holds the
// drift findings to pairs.toml and the outputs to the pair's golden.
func TestDriftPairs(t *testing.T) {
	t.Parallel()
	pairs := loadDriftPairs(t)
	dir := t.TempDir()
	captures := map[string]string{}
	for _, p := range pairs {
		for _, name := range []string{p.Base, p.Session} {
			if _, ok := captures[name]; !ok {
				captures[name] = captureTranscript(t, dir, name)
			}
		}
	}
	for _, p := range pairs {
		t.Run(p.Base+"--"+p.Session, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			link(t, captures[p.Base], filepath.Join(work, "base.jsonl"))
			link(t, captures[p.Session], filepath.Join(work, "session.jsonl"))
			run(t, work, 0, "tools", "--save-baseline", "base.json", "base.jsonl")
			tools := run(t, work, 0, "tools", "session.jsonl")
			want := 0
			if failing(p.Findings) {
				want = 1
			}
			text := run(t, work, want, "check", "--category", "drift", "--tools-baseline", "base.json", "session.jsonl")
			js := run(t, work, want, "check", "--category", "drift", "-T", "json", "--tools-baseline", "base.json", "session.jsonl")
			if diff := cmp.Diff(nonZero(p.Findings), driftCounts(t, js)); diff != "" {
				t.Errorf("drift findings (-pairs.toml +check):\n%s", diff)
			}
			got := "$ mcptrail tools session.jsonl\n" + tools +
				"$ mcptrail check --category drift --tools-baseline base.json session.jsonl\n" + text
			got = strings.ReplaceAll(got, sessionID(t, captures[p.Session]), "SESSION")
			golden.Check(t, filepath.Join(driftDir, p.Base+"--"+p.Session+".golden"), got)
		})
	}
}

// TestDriftPairsRaiseEachRule holds pairs.toml to the acceptance of issue
// 15: each drift rule has a pair that raises it and one that must not.
func TestDriftPairsRaiseEachRule(t *testing.T) {
	t.Parallel()
	pairs := loadDriftPairs(t)
	for _, id := range rules.DriftIDs() {
		raised, quiet := 0, 0
		for _, p := range pairs {
			if p.Findings[id] > 0 {
				raised++
			} else {
				quiet++
			}
		}
		if raised == 0 || quiet == 0 {
			t.Errorf("rule %s: raised by %d pairs, quiet in %d; want both", id, raised, quiet)
		}
	}
	for _, p := range pairs {
		for id := range p.Findings {
			if !contains(rules.DriftIDs(), id) {
				t.Errorf("pair %s--%s expects %s, not a drift rule", p.Base, p.Session, id)
			}
		}
	}
}

// captureTranscript plays the transcript name (from testdata/transcripts,
// else testdata/drift) through the proxy and returns its capture's path.
func captureTranscript(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(transcriptDir, name+".transcript.jsonl")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		path = filepath.Join(driftDir, name+".transcript.jsonl")
	}
	tr, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(dir, name+".jsonl")
	playThroughProxy(t, tr, path, "--capture", raw, "--label", name)
	return raw
}

// run runs the mcptrail binary in dir, requires exit status code and
// returns its standard output.
func run(t *testing.T, dir string, code int, args ...string) string {
	t.Helper()
	cmd := exec.Command(testBinary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+filepath.Join(dir, "state"), "COLUMNS=120", "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if got != code {
		t.Fatalf("mcptrail %s: exit status %d, want %d; stderr:\n%s", strings.Join(args, " "), got, code, stderr.String())
	}
	return stdout.String()
}

func link(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// failing reports whether findings hold a rule of default severity error.
func failing(findings map[string]int) bool {
	reg := rules.Default()
	for id, n := range findings {
		if n > 0 && reg.Severity(id) == "error" {
			return true
		}
	}
	return false
}

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v > 0 {
			out[k] = v
		}
	}
	return out
}

// driftCounts counts the findings of a check -T json report by rule.
func driftCounts(t *testing.T, js string) map[string]int {
	t.Helper()
	var rep struct {
		Results []struct {
			Items []struct {
				Rule string `json:"rule"`
			} `json:"items"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("decoding the check report: %v", err)
	}
	out := map[string]int{}
	for _, r := range rep.Results {
		for _, it := range r.Items {
			out[it.Rule]++
		}
	}
	return out
}

// sessionID returns the session id of a capture's header.
func sessionID(t *testing.T, path string) string {
	t.Helper()
	recs := readCapture(t, path)
	if recs[0].SessionID == "" {
		t.Fatalf("%s: no session id", path)
	}
	return recs[0].SessionID
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
