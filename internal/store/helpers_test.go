package store

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// t0 is the start of every scripted session.
var t0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// step is one record of a scripted session: a frame (dir set), or another
// record (rec set). After is the delay since the previous step.
type step struct {
	dir   capture.Dir
	after time.Duration
	raw   string
	rec   *capture.Record
	http  *capture.HTTP
}

func c2s(afterMS int, raw string) step {
	return step{dir: capture.C2S, after: time.Duration(afterMS) * time.Millisecond, raw: raw}
}

func s2c(afterMS int, raw string) step {
	return step{dir: capture.S2C, after: time.Duration(afterMS) * time.Millisecond, raw: raw}
}

func endRec() step { return step{rec: &capture.Record{Type: capture.TypeEnd}} }

func noteRec(r capture.Record) step {
	r.Type = capture.TypeNote
	return step{rec: &r}
}

// captureOf writes the steps as a capture file (header first) through the
// real Writer, so tests exercise the record format the taps write.
func captureOf(t testing.TB, steps []step) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	hdr := capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: "test", Transport: "stdio", Label: "test", Command: []string{"server"}}
	if err := w.Write(&hdr); err != nil {
		t.Fatal(err)
	}
	now := t0
	for i, st := range steps {
		now = now.Add(st.after)
		seq := uint64(i + 1)
		var err error
		if st.rec != nil {
			r := *st.rec
			r.Seq, r.Time = seq, now
			err = w.Write(&r)
		} else {
			err = w.WriteLine(capture.TypeFrame, seq, now, st.dir, []byte(st.raw), false, "", st.http)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// load runs the steps through Writer, Reader and Load.
func load(t testing.TB, steps []step) *Snapshot {
	t.Helper()
	return loadBytes(t, captureOf(t, steps), nil)
}

func loadBytes(t testing.TB, data []byte, opts *Options) *Snapshot {
	t.Helper()
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Load(r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// transcript reads a fixture transcript (../shared/fixtures format) into
// steps.
func transcript(t testing.TB, path string) []step {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			Dir     string `json:"dir"`
			AfterMS int    `json:"after_ms"`
			Raw     string `json:"raw"`
			RawB64  string `json:"raw_b64"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		raw := l.Raw
		if l.RawB64 != "" {
			b, err := base64.StdEncoding.DecodeString(l.RawB64)
			if err != nil {
				t.Fatal(err)
			}
			raw = string(b)
		}
		steps = append(steps, step{dir: capture.Dir(l.Dir), after: time.Duration(l.AfterMS) * time.Millisecond, raw: raw})
	}
	return steps
}

// callLines renders calls compactly for diffs:
// "dir id method[target] status era op=O/R parent=P(attr) late cancel".
func callLines(calls []Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		s := fmt.Sprintf("%s %s %s", c.Dir, c.ID.Raw(), c.Method)
		if c.Target != "" {
			s += "[" + c.Target + "]"
		}
		s += " " + c.Status
		if c.Era != "" {
			s += " " + c.Era
		}
		if c.Operation >= 0 {
			s += fmt.Sprintf(" op=%d/%d", c.Operation, c.Round)
		}
		if c.Attribution != "" {
			s += fmt.Sprintf(" parent=%d(%s)", c.Parent, c.Attribution)
		}
		if c.Late {
			s += " late"
		}
		if c.CancelSeq != 0 {
			s += fmt.Sprintf(" cancel@%d", c.CancelSeq)
		}
		out[i] = s
	}
	return out
}

// opLines renders operations: "method[target] status root=R rounds=call:pairing,...".
func opLines(ops []Operation) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		var rounds []string
		for _, r := range op.Rounds {
			rounds = append(rounds, fmt.Sprintf("%d:%s", r.Call, r.Pairing))
		}
		out[i] = fmt.Sprintf("%s[%s] %s root=%d rounds=%s", op.Method, op.Target, op.Status, op.Root, strings.Join(rounds, ","))
	}
	return out
}

// findingLines renders findings as "rule@seq".
func findingLines(fs []finding.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s@%d", f.Rule, f.Seq)
	}
	return out
}

// meta is the _meta of a modern request.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// req is a legacy-shaped request; params "" leaves them out.
func req(id, method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, id, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params)
}

// res is a result response.
func res(id, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// errRes is an error response.
func errRes(id string, code int, msg string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, id, code, msg)
}

// notif is a notification.
func notif(method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

// tool is a modern tools/call; extra is spliced into params (start it with
// a comma).
func tool(id, name, args, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s%s,%s}}`,
		id, name, args, extra, meta)
}

// inputRequired is an input_required result; inputs "" and state "" leave those
// members out.
func inputRequired(id, inputs, state string) string {
	r := `{"resultType":"input_required"`
	if inputs != "" {
		r += `,"inputRequests":` + inputs
	}
	if state != "" {
		r += fmt.Sprintf(`,"requestState":%q`, state)
	}
	return res(id, r+"}")
}

// done is a complete modern result.
func done(id string) string {
	return res(id, `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`)
}

// elicit is an inputRequests map with one form elicitation under key.
func elicit(key string) string {
	return fmt.Sprintf(`{%q:{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}`, key)
}

// checkConsistent asserts the invariants every Snapshot keeps, whatever the
// traffic.
func checkConsistent(t testing.TB, snap *Snapshot) {
	t.Helper()
	checkDerived(t, snap)
	calls := snap.Calls.Slice()
	for i, c := range calls {
		if c.Index != i {
			t.Errorf("call %d has Index %d", i, c.Index)
		}
		answered := c.ResponseSeq != 0
		if unanswered := c.Status == StatusPending || c.Status == StatusCancelled; answered == unanswered {
			t.Errorf("call %d: status %s with ResponseSeq %d", i, c.Status, c.ResponseSeq)
		}
		if (c.Error != nil) != (c.Status == StatusError || c.Status == StatusHTTPError) {
			t.Errorf("call %d: status %s with error %v", i, c.Status, c.Error)
		}
		if c.Late && c.CancelSeq == 0 {
			t.Errorf("call %d: late but never cancelled", i)
		}
		if c.Operation >= 0 {
			if c.Operation >= len(snap.Operations.Slice()) || c.Round < 1 || c.Round > len(snap.Operations.Slice()[c.Operation].Rounds) ||
				snap.Operations.Slice()[c.Operation].Rounds[c.Round-1].Call != i {
				t.Errorf("call %d: operation %d round %d does not point back", i, c.Operation, c.Round)
			}
		}
		if (c.Attribution != "") != (c.Dir == capture.S2C) {
			t.Errorf("call %d: dir %s with attribution %q", i, c.Dir, c.Attribution)
		}
		if c.Parent >= 0 && (c.Parent >= len(calls) || calls[c.Parent].Dir != capture.C2S) {
			t.Errorf("call %d: parent %d is not a client call", i, c.Parent)
		}
	}
	for i, op := range snap.Operations.Slice() {
		if op.Index != i || len(op.Rounds) == 0 || op.Rounds[0].Call != op.Root || op.Rounds[0].Pairing != PairRoot {
			t.Errorf("operation %d: bad index, root or first round: %+v", i, op)
			continue
		}
		for j, r := range op.Rounds {
			if r.Call >= len(calls) || calls[r.Call].Operation != i || calls[r.Call].Round != j+1 {
				t.Errorf("operation %d round %d: call %d does not point back", i, j, r.Call)
			}
			if j > 0 && r.Pairing != PairStrong && r.Pairing != PairHeuristic && (r.Pairing != PairTask || op.Task.ID == "") {
				t.Errorf("operation %d round %d: pairing %q", i, j, r.Pairing)
			}
		}
		switch {
		case op.Task.ID != "": // a task's status is its own, not its last poll's
			if op.Status != taskStatus(&op.Task) || (op.Task.Terminal() != !op.End.IsZero()) {
				t.Errorf("operation %d: status %s, end %v for task %+v", i, op.Status, op.End, op.Task)
			}
		case op.Status != calls[op.Rounds[len(op.Rounds)-1].Call].Status:
			t.Errorf("operation %d: status %s differs from its last round's", i, op.Status)
		}
	}
	for _, f := range snap.Findings.Slice() {
		// Options.Rules is nil here: findings stay ungraded (internal/rules
		// tests the grading and that every raised id is registered).
		if f.Rule == "" || f.Severity != "" || f.Call < -1 || f.Call >= len(calls) {
			t.Errorf("finding %+v: no rule, graded without rules, or call out of range", f)
		}
	}
	if c := snap.Counts; c.Frames != c.C2S+c.S2C || c.Invalid > c.Frames*1000 {
		t.Errorf("counts inconsistent: %+v", c)
	}
}
