package check

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// frame is one frame of a test capture, ms milliseconds after the start.
type frame struct {
	dir  capture.Dir
	ms   int
	line string
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

func call(ms int, id, tool string) frame {
	return frame{capture.C2S, ms, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":{},%s}}`, id, tool, meta)}
}

func ok(ms int, id string) frame {
	return frame{capture.S2C, ms, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[]}}`, id)}
}

func failed(ms int, id string) frame {
	return frame{capture.S2C, ms, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"boom"}}`, id)}
}

// captureOf returns a capture of one session with frames; ended adds an
// end record. sid and start vary what must not enter fingerprints.
func captureOf(t *testing.T, sid string, start time.Time, ended bool, frames ...frame) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion,
		SessionID: sid, Transport: "stdio", Label: "test", Command: []string{"server"}}))
	for i, f := range frames {
		must(w.WriteLine(capture.TypeFrame, uint64(i+1), start.Add(time.Duration(f.ms)*time.Millisecond), f.dir, []byte(f.line), false, "", nil))
	}
	if ended {
		must(w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Minute)}))
	}
	must(w.Flush())
	return buf.Bytes()
}

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)

// run checks the captures with opts and returns the report.
func run(t *testing.T, opts *Options, captures ...[]byte) (*Checker, *Report) {
	t.Helper()
	c := New(opts)
	for i, b := range captures {
		r, err := capture.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Check(r, fmt.Sprintf("c%d.jsonl", i)); err != nil {
			t.Fatal(err)
		}
	}
	return c, c.Report()
}

// rulesOf lists "rule@line" for each item of the report.
func rulesOf(r *Report) []string {
	var out []string
	for _, res := range r.Results {
		for _, it := range res.Items {
			out = append(out, fmt.Sprintf("%s@%d", it.Rule, it.Line))
		}
	}
	return out
}

func TestCheck(t *testing.T) {
	t.Parallel()
	zero := 0
	clean := captureOf(t, "s1", t0, true, call(0, "1", "echo"), ok(5, "1"))
	hang := captureOf(t, "s1", t0, true, call(0, "1", "echo"), ok(5, "1"), call(6, "2", "slow"))
	mixed := captureOf(t, "s1", t0, false, call(0, "1", "echo"), ok(2000, "1"), call(2001, "2", "rm"), failed(2002, "2"), call(2003, "3", "slow"))
	tests := []struct {
		name       string
		in         []byte
		opts       Options
		want       []string
		wantFailed bool
	}{
		{name: "clean", in: clean},
		{name: "clean, failing on info", in: clean, opts: Options{FailOn: finding.Info}},
		{name: "unanswered is a warning", in: hang, want: []string{"unanswered-request@4"}},
		{name: "failing on warning", in: hang, opts: Options{FailOn: finding.Warning}, want: []string{"unanswered-request@4"}, wantFailed: true},
		{name: "assertions", in: mixed, opts: Options{Assert: Assertions{
			MaxDuration: time.Second, MaxToolDuration: time.Second, MaxErrors: &zero, ExpectTools: []string{"rm", "gone"},
			ForbidTools: []string{"rm"}, ExpectNoPending: true}},
			want: []string{
				"check-max-duration@2", "check-max-tool-duration@2", "check-forbid-tool@4", "check-expect-no-pending@6",
				"check-max-errors@0", "check-expect-tool@0", "check-expect-tool@0",
			}, wantFailed: true},
		{name: "assertions skipped by registry", in: mixed, opts: Options{Rules: skip(t, rules.AssertForbidTool), Assert: Assertions{ForbidTools: []string{"rm"}}}},
		{name: "limits not reached", in: mixed, opts: Options{Assert: Assertions{MaxDuration: time.Hour, MaxErrors: &[]int{1}[0]}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, rep := run(t, &tt.opts, tt.in)
			if diff := cmp.Diff(tt.want, rulesOf(rep)); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if got := rep.Failed(); got != tt.wantFailed {
				t.Errorf("Failed() = %v, want %v", got, tt.wantFailed)
			}
		})
	}
}

func skip(t *testing.T, ids ...string) *finding.Registry {
	t.Helper()
	reg := rules.Default()
	for _, id := range ids {
		if err := reg.Disable(id); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// TestEnabledRules: the assertion rules are in the report's rules only
// when their limit is set.
func TestEnabledRules(t *testing.T) {
	t.Parallel()
	has := func(r *Report, id string) bool {
		for _, rule := range r.Rules {
			if rule.ID == id {
				return true
			}
		}
		return false
	}
	plain := New(nil).Report()
	if has(plain, rules.AssertForbidTool) || !has(plain, finding.UnansweredRequest) {
		t.Errorf("default rules: forbid %v, unanswered %v; want false, true", has(plain, rules.AssertForbidTool), has(plain, finding.UnansweredRequest))
	}
	if withFlag := New(&Options{Assert: Assertions{ForbidTools: []string{"x"}}}).Report(); !has(withFlag, rules.AssertForbidTool) {
		t.Errorf("--forbid-tool given: %s not among the rules", rules.AssertForbidTool)
	}
}

// TestFingerprints: two captures of one scenario (other session ids,
// times, JSON-RPC ids) give equal fingerprints; other problems differ.
func TestFingerprints(t *testing.T) {
	t.Parallel()
	a := captureOf(t, "aaaa", t0, true, call(0, "1", "echo"), call(1, "2", "echo"), ok(3, "1"))
	b := captureOf(t, "bbbb", t0.Add(time.Hour), true, call(0, "7", "echo"), ok(1, "7"), call(9, `"x-8"`, "echo"))
	other := captureOf(t, "cccc", t0, true, call(0, "1", "other"), ok(1, "1"), call(1, "2", "slow"))
	_, rep := run(t, nil, a, b, other)
	fp := func(i int) []string {
		var out []string
		for _, it := range rep.Results[i].Items {
			out = append(out, it.Fingerprint)
		}
		return out
	}
	if len(fp(0)) != 1 || len(fp(2)) != 1 {
		t.Fatalf("want one item per capture, got %v", rulesOf(rep))
	}
	if diff := cmp.Diff(fp(0), fp(1)); diff != "" {
		t.Errorf("same scenario, fingerprints differ (-a +b):\n%s", diff)
	}
	if fp(0)[0] == fp(2)[0] {
		t.Errorf("different problems share fingerprint %s", fp(0)[0])
	}
	// Two occurrences of one problem in a session differ.
	two := captureOf(t, "dddd", t0, true, call(0, "1", "echo"), call(1, "2", "echo"))
	_, rep = run(t, nil, two)
	if its := rep.Results[0].Items; len(its) != 2 || its[0].Fingerprint == its[1].Fingerprint {
		t.Errorf("two occurrences: items %+v, want two fingerprints that differ", its)
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`c2s tools/call id 4 was never answered`:     `# tools/call id # was never answered`,
		`c2s tools/call id "abc" was never answered`: `# tools/call id # was never answered`,
		`took 1.5s, over 1s at 2026-07-28T09:00:00Z`: `took # over # at #`,
		`tool rm was called`:                         `tool rm was called`,
	} {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBaseline: a baseline of one run suppresses its findings in the
// next, which fails only on the new problem.
func TestBaseline(t *testing.T) {
	t.Parallel()
	old := captureOf(t, "s1", t0, true, call(0, "1", "echo"), ok(1, "1"), call(2, "2", "slow"))
	opts := Options{FailOn: finding.Warning}
	c, _ := run(t, &opts, old)
	var buf bytes.Buffer
	if err := c.WriteBaseline(&buf); err != nil {
		t.Fatal(err)
	}
	base, err := ReadBaseline(&buf)
	if err != nil {
		t.Fatal(err)
	}
	worse := captureOf(t, "s2", t0, true, call(0, "5", "echo"), ok(1, "5"), call(2, "6", "slow"), call(3, "7", "new"))
	opts.Baseline = base
	_, rep := run(t, &opts, worse)
	if diff := cmp.Diff([]string{"unanswered-request@5"}, rulesOf(rep)); diff != "" {
		t.Errorf("items after the baseline (-want +got):\n%s", diff)
	}
	if rep.Results[0].Suppressed != 1 || !strings.Contains(rep.Results[0].Items[0].Message, "tools/call id 7") || !rep.Failed() {
		t.Errorf("suppressed %d, item %q, failed %v; want 1, the call id 7, true", rep.Results[0].Suppressed, rep.Results[0].Items[0].Message, rep.Failed())
	}
	if _, err := ReadBaseline(strings.NewReader(`{"version":9,"findings":[]}`)); err == nil {
		t.Error("a baseline of version 9 was read")
	}
}

// TestOperationAssertions: an MRTR operation's tool time leaves out the
// human's wait between the interim result and the retry, and its round
// trips count the original and the retry.
func TestOperationAssertions(t *testing.T) {
	t.Parallel()
	interim := frame{capture.S2C, 10, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":` +
		`{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s"}}`}
	retry := frame{capture.C2S, 60_000, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book","arguments":{},`+
		`"inputResponses":{"a":{"action":"accept","content":{}}},"requestState":"s",%s}}`, meta)}
	chain := captureOf(t, "s1", t0, true, call(0, "1", "book"), interim, retry, ok(62_000, "2"))
	tests := []struct {
		name   string
		assert Assertions
		want   []string
	}{
		{name: "tool time under the limit though the operation took a minute", assert: Assertions{MaxToolDuration: 3 * time.Second}},
		{name: "tool time over", assert: Assertions{MaxToolDuration: time.Second}, want: []string{"check-max-tool-duration@2"}},
		{name: "two round trips allowed", assert: Assertions{MaxRoundTrips: 2}},
		{name: "one round trip allowed", assert: Assertions{MaxRoundTrips: 1}, want: []string{"check-max-round-trips@2"}},
		{name: "each round is a call of its own", assert: Assertions{MaxDuration: 3 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, rep := run(t, &Options{Assert: tt.assert}, chain)
			if diff := cmp.Diff(tt.want, rulesOf(rep)); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHumanWait: a legacy elicitation/create the server sends during a
// tool call waits for a person; --max-duration does not judge it (the
// tool call around it still is), --max-elicitation-wait does. A
// sampling/createMessage is answered by a model: --max-duration judges it.
func TestHumanWait(t *testing.T) {
	t.Parallel()
	c2sCall := func(ms int, id, tool string) frame {
		return frame{capture.C2S, ms, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool)}
	}
	ask := frame{capture.S2C, 100, `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}`}
	answer := frame{capture.C2S, 40_100, `{"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{}}}`}
	sample := frame{capture.S2C, 40_200, `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}`}
	sampled := frame{capture.C2S, 45_200, `{"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`}
	done := frame{capture.S2C, 45_300, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`}
	data := captureOf(t, "s1", t0, true, c2sCall(0, "1", "book"), ask, answer, sample, sampled, done)
	tests := []struct {
		name   string
		assert Assertions
		want   []string
	}{
		{name: "max-duration: the tool call and the sampling, not the elicitation", assert: Assertions{MaxDuration: 2 * time.Second},
			want: []string{"check-max-duration@2", "check-max-duration@5"}},
		{name: "max-duration over everything but the tool call", assert: Assertions{MaxDuration: 10 * time.Second},
			want: []string{"check-max-duration@2"}},
		{name: "max-elicitation-wait over", assert: Assertions{MaxElicitationWait: 30 * time.Second},
			want: []string{"check-max-elicitation-wait@3"}},
		{name: "max-elicitation-wait under", assert: Assertions{MaxElicitationWait: time.Minute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, rep := run(t, &Options{Assert: tt.assert}, data)
			if diff := cmp.Diff(tt.want, rulesOf(rep)); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}
