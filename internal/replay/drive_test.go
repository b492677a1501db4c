package replay

import (
	"bufio"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// fakeServer answers the driver from a script: for each request it reads,
// it calls answer with the frame and writes the lines answer returns. It
// keeps every frame it read.
type fakeServer struct {
	in   *bufio.Reader
	out  io.Writer
	seen []wire.Frame
}

// Its writes go through a goroutine of their own, as an OS pipe's buffer
// would let them, so that it reads while the driver has not read yet.
func (s *fakeServer) serve(answer func(f *wire.Frame) []string) error {
	lines := make(chan string, 64)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for l := range lines {
			_, _ = io.WriteString(s.out, l+"\n")
		}
	}()
	defer func() { close(lines); <-wrote }()
	for {
		line, err := s.in.ReadBytes('\n')
		if err != nil {
			return err
		}
		f := wire.Decode(line)
		s.seen = append(s.seen, f)
		for _, l := range answer(&f) {
			lines <- l
		}
	}
}

// drivePlan runs the driver for p against a fake server answering with
// answer; it returns what the driver reported and what the server read.
func drivePlan(t *testing.T, p *Plan, timeout time.Duration, answer func(f *wire.Frame) []string) (Result, []wire.Frame, error) {
	t.Helper()
	toSrvR, toSrvW := io.Pipe()
	fromSrvR, fromSrvW := io.Pipe()
	srv := &fakeServer{in: bufio.NewReader(toSrvR), out: fromSrvW}
	served := make(chan error, 1)
	go func() {
		err := srv.serve(answer)
		fromSrvW.Close()
		served <- err
	}()
	c := newConn(toSrvW, fromSrvR)
	d := &driver{c: c, timeout: timeout}
	err := d.run(p)
	if err == nil {
		d.settle(p, time.Now())
	}
	c.stop()
	toSrvW.Close()
	if serr := <-served; !errors.Is(serr, io.EOF) {
		t.Errorf("fake server: %v", serr)
	}
	c.wait()
	return d.res, srv.seen, err
}

// TestDriveMRTR: the server's new requestState is echoed and the recorded
// inputResponses sent for the keys it asks; a key the recording has no
// answer for is cancelled and reported.
func TestDriveMRTR(t *testing.T) {
	t.Parallel()
	p, err := NewPlan(load(t, modernCapture), &PlanOptions{Only: []string{"confirm"}, AllowDestructive: true})
	if err != nil {
		t.Fatal(err)
	}
	answer := func(f *wire.Frame) []string {
		name, _ := jsonraw.String(jsonraw.Member(f.Params, "name"))
		switch {
		case name == "confirm" && jsonraw.Member(f.Params, "requestState") == nil:
			return []string{`{"jsonrpc":"2.0","id":` + f.ID.Raw() + `,"result":{"resultType":"input_required","inputRequests":{"ok":{"method":"elicitation/create","params":{}},"why":{"method":"elicitation/create","params":{}}},"requestState":"NEW"}}`}
		}
		return []string{`{"jsonrpc":"2.0","id":` + f.ID.Raw() + `,"result":{"resultType":"complete"}}`}
	}
	res, seen, err := drivePlan(t, p, 5*time.Second, answer)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range seen {
		got = append(got, f.Method+" "+string(jsonraw.Member(f.Params, "requestState"))+" "+string(jsonraw.Member(f.Params, "inputResponses")))
	}
	want := []string{
		"server/discover  ", "tools/list  ", "tools/call  ",
		`tools/call "NEW" {"ok":{"action":"accept","content":{"ok":true}},"why":{"action":"cancel"}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the server read (-want +got):\n%s", diff)
	}
	wantQ := []Question{{Call: 4, Method: "tools/call", Target: "confirm", Key: "why", Asked: "elicitation/create"}}
	if diff := cmp.Diff(wantQ, res.Unanswered); diff != "" {
		t.Errorf("unanswered (-want +got):\n%s", diff)
	}
	if res.Requests != 4 {
		t.Errorf("%d requests sent, want 4", res.Requests)
	}
}

// TestDriveLegacy: a server-initiated elicitation/create gets the
// recorded answer under the server's new id; a second one is cancelled
// and a roots/list refused, both reported; notifications/initialized
// follows initialize.
func TestDriveLegacy(t *testing.T) {
	t.Parallel()
	p, err := NewPlan(load(t, legacyCapture), &PlanOptions{AllowDestructive: true})
	if err != nil {
		t.Fatal(err)
	}
	var replies []string
	answer := func(f *wire.Frame) []string {
		switch {
		case f.Method == "initialize":
			return []string{`{"jsonrpc":"2.0","id":` + f.ID.Raw() + `,"result":{"protocolVersion":"2025-11-25"}}`}
		case f.Method == "tools/call":
			return []string{
				`{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"How many?"}}`,
				`{"jsonrpc":"2.0","id":"e2","method":"elicitation/create","params":{"message":"And a name?"}}`,
				`{"jsonrpc":"2.0","id":"r1","method":"roots/list"}`,
			}
		case f.Kind == wire.KindResponse || f.Kind == wire.KindError:
			replies = append(replies, f.ID.Raw())
			if len(replies) == 3 {
				return []string{`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`}
			}
		}
		return nil
	}
	res, seen, err := drivePlan(t, p, 5*time.Second, answer)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range seen {
		got = append(got, f.Kind.String()+" "+f.Method+" "+f.ID.Raw()+" "+string(f.Result)+f.ErrorMessage)
	}
	want := []string{
		"request initialize 1 ",
		"notification notifications/initialized  ",
		"request tools/call 2 ",
		`response  "e1" {"action":"accept","content":{"n":2}}`,
		`response  "e2" {"action":"cancel"}`,
		`error  "r1" mcptrail replay: the recording holds no answer to roots/list`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the server read (-want +got):\n%s", diff)
	}
	if len(res.Unanswered) != 2 || res.Unanswered[0].Asked != "elicitation/create" || res.Unanswered[1].Asked != "roots/list" {
		t.Errorf("unanswered: %+v, want the second elicitation and roots/list", res.Unanswered)
	}
}

// TestDriveTimeout: a server that never answers ends the replay with
// ErrTimeout, naming the call.
func TestDriveTimeout(t *testing.T) {
	t.Parallel()
	p, err := NewPlan(load(t, modernCapture), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = drivePlan(t, p, 50*time.Millisecond, func(*wire.Frame) []string { return nil })
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if want := "replaying call 0 (server/discover): no answer from the server in 50ms: timed out"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

// rootsCapture is a legacy session whose server asked roots/list on a
// timer after initialized (no call in flight, so no call's answer) and
// sampling/createMessage during the echo call; the client answered both.
const rootsCapture = `{"type":"session","time":"2025-11-25T09:30:00Z","format":1,"session_id":"r3","transport":"stdio"}
{"type":"frame","seq":1,"time":"2025-11-25T09:30:00.001Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"}}}}
{"type":"frame","seq":2,"time":"2025-11-25T09:30:00.002Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}
{"type":"frame","seq":3,"time":"2025-11-25T09:30:00.003Z","dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
{"type":"frame","seq":4,"time":"2025-11-25T09:30:00.350Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"method":"roots/list","params":{"_meta":{"k":1}}}}
{"type":"frame","seq":5,"time":"2025-11-25T09:30:00.351Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"result":{"roots":[{"uri":"file:///p"}]}}}
{"type":"frame","seq":6,"time":"2025-11-25T09:30:00.400Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}}
{"type":"frame","seq":7,"time":"2025-11-25T09:30:00.401Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}}}
{"type":"frame","seq":8,"time":"2025-11-25T09:30:00.402Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"hello"},"model":"m"}}}
{"type":"frame","seq":9,"time":"2025-11-25T09:30:00.403Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}
`

// TestDriveServerRequests: a server request gets the recorded answer to a
// request of the same method and params (without _meta), whichever call
// it came in; one whose params differ is refused at once; and the replay
// waits after the last call for the roots/list the recorded server asked
// on a timer, answering it from the recording, instead of leaving it
// unanswered.
func TestDriveServerRequests(t *testing.T) {
	t.Parallel()
	p, err := NewPlan(load(t, rootsCapture), &PlanOptions{AllowDestructive: true})
	if err != nil {
		t.Fatal(err)
	}
	answer := func(f *wire.Frame) []string {
		switch {
		case f.Method == "initialize":
			return []string{`{"jsonrpc":"2.0","id":` + f.ID.Raw() + `,"result":{"protocolVersion":"2025-11-25"}}`}
		case f.Method == "tools/call":
			return []string{
				`{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}}`,
				`{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"other"}}],"maxTokens":5}}`,
			}
		case f.ID.Raw() == `"s2"`:
			// The call ends; the timer's roots/list comes after it.
			return []string{`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`, `{"jsonrpc":"2.0","id":"t1","method":"roots/list"}`}
		}
		return nil
	}
	res, seen, err := drivePlan(t, p, 5*time.Second, answer)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range seen {
		if f.Kind == wire.KindResponse || f.Kind == wire.KindError {
			got = append(got, f.ID.Raw()+" "+string(f.Result)+f.ErrorMessage)
		}
	}
	want := []string{
		`"s1" {"role":"assistant","content":{"type":"text","text":"hello"},"model":"m"}`,
		`"s2" mcptrail replay: the recording holds no answer to sampling/createMessage`,
		`"t1" {"roots":[{"uri":"file:///p"}]}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the server's requests answered (-want +got):\n%s", diff)
	}
	if len(res.Unanswered) != 1 || res.Unanswered[0].Asked != "sampling/createMessage" {
		t.Errorf("unanswered: %+v, want the second sampling request", res.Unanswered)
	}
}
