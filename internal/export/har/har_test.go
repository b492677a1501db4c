package harexport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)

// render feeds hdr and recs through a store into a Writer and returns the
// archive.
func render(t *testing.T, hdr *capture.Record, recs []capture.Record) []byte {
	t.Helper()
	var out bytes.Buffer
	hw := New(&out, hdr, "1.2.3-test")
	st := store.New(&store.Options{OnFrame: hw.Frame})
	st.Ingest(hdr)
	for i := range recs {
		st.Ingest(&recs[i])
	}
	if err := hw.Finish(st.Final()); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// harDoc is the part of an archive the tests read.
type harDoc struct {
	Log struct {
		Version string
		Creator struct{ Name, Version string }
		Entries []struct {
			StartedDateTime string
			Time            float64
			Request         struct {
				Method, URL string
				Headers     []nameValue
				PostData    *postData
			}
			Response struct {
				Status     int
				StatusText string
				Headers    []nameValue
				Content    content
			}
			Timings  timings
			Mcptrail map[string]any `json:"_mcptrail"`
		}
	}
}

func decode(t *testing.T, b []byte) harDoc {
	t.Helper()
	var d harDoc
	if err := json.Unmarshal(b, &d, json.MatchCaseInsensitiveNames(true)); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return d
}

// TestStdioTranscript: the elicit-seed transcript (an MRTR operation of
// several rounds, a pending call) as a stdio capture gives a schema-valid
// archive with one entry per call: the pseudo-URL, the request and
// response frames byte for byte, status 200 or 0 while pending, and the
// call's status, era and operation in _mcptrail.
func TestStdioTranscript(t *testing.T) {
	t.Parallel()
	tr, err := transcript.Load("../../../testdata/transcripts/elicit-seed.transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	hdr := &capture.Record{Type: capture.TypeSession, Time: t0, Format: 1, SessionID: "s1", Transport: "stdio", Label: "seed lab"}
	var recs []capture.Record
	at := t0
	for i, f := range tr.Frames {
		if f.Dir == transcript.Stderr {
			continue
		}
		at = at.Add(time.Duration(f.AfterMS * float64(time.Millisecond)))
		recs = append(recs, capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: at,
			Dir: capture.Dir(f.Dir), Msg: jsontext.Value(f.Raw), Size: len(f.Raw)})
	}
	out := render(t, hdr, recs)
	testbin.ValidateHAR(t, testbin.HARSchema(t), out)
	d := decode(t, out)
	if d.Log.Version != "1.2" || d.Log.Creator.Name != "mcptrail" || d.Log.Creator.Version != "1.2.3-test" {
		t.Errorf("log version/creator = %q %+v", d.Log.Version, d.Log.Creator)
	}
	snap := store.New(nil)
	snap.Ingest(hdr)
	for i := range recs {
		snap.Ingest(&recs[i])
	}
	calls := snap.Final().Calls.Slice()
	if len(d.Log.Entries) != len(calls) || len(calls) < 3 {
		t.Fatalf("%d entries, want one per call (%d)", len(d.Log.Entries), len(calls))
	}
	bySeq := map[uint64]string{}
	for _, r := range recs {
		bySeq[r.Seq] = string(r.Msg)
	}
	for i, c := range calls {
		e := d.Log.Entries[i]
		wantURL := "mcp+stdio://seed-lab/" + escape(c.Method)
		if c.Target != "" {
			wantURL += "/" + escape(c.Target)
		}
		if e.Request.Method != "POST" || e.Request.URL != wantURL {
			t.Errorf("call %d: %s %s, want POST %s", i, e.Request.Method, e.Request.URL, wantURL)
		}
		if e.Request.PostData == nil || e.Request.PostData.Text != bySeq[c.RequestSeq] {
			t.Errorf("call %d: postData %+v, want the request frame", i, e.Request.PostData)
		}
		wantStatus, wantText := 0, ""
		if c.ResponseSeq != 0 {
			wantStatus, wantText = 200, bySeq[c.ResponseSeq]
		}
		if e.Response.Status != wantStatus || e.Response.Content.Text != wantText || e.Response.Content.MimeType != "application/json" {
			t.Errorf("call %d: response %d %+v, want %d and the response frame", i, e.Response.Status, e.Response.Content, wantStatus)
		}
		if e.Mcptrail["status"] != c.Status || e.Mcptrail["era"] != c.Era || e.Mcptrail["method"] != c.Method {
			t.Errorf("call %d: _mcptrail %v, want status %q era %q", i, e.Mcptrail, c.Status, c.Era)
		}
		if _, ok := e.Mcptrail["operation"]; ok != (c.Operation >= 0) {
			t.Errorf("call %d: _mcptrail %v, operation %d", i, e.Mcptrail, c.Operation)
		}
	}
}

func TestStdioURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ label, method, target, want string }{
		{"demo", "tools/call", "echo", "mcp+stdio://demo/tools%2Fcall/echo"},
		{"", "initialize", "", "mcp+stdio://stdio/initialize"},
		{"a b:c@d", "resources/read", "file:///x y?q#f", "mcp+stdio://a-b-c-d/resources%2Fread/file%3A%2F%2F%2Fx%20y%3Fq%23f"},
		{"l", "tools/call", "é/..", "mcp+stdio://l/tools%2Fcall/%C3%A9%2F.."},
		{"é", "ping", "", "mcp+stdio://--/ping"},
	}
	for _, tt := range tests {
		if got := stdioURL(tt.label, tt.method, tt.target); got != tt.want {
			t.Errorf("stdioURL(%q, %q, %q) = %q, want %q", tt.label, tt.method, tt.target, got, tt.want)
		}
	}
}

// TestHTTPExchanges: an HTTP capture gives one entry per exchange in order
// of first frame: the method, the path on the target's origin, the headers
// as captured (Authorization only as its scheme and [present]), the body
// as postData, the SSE events re-framed as data: lines, the status and
// timings; a 401 status frame and an exchange never answered (status 0)
// stay schema-valid.
func TestHTTPExchanges(t *testing.T) {
	t.Parallel()
	hdr := &capture.Record{Type: capture.TypeSession, Time: t0, Format: 1, SessionID: "h1", Transport: "http",
		Target: "http://[REDACTED]@upstream.example:8080/mcp?k=v"}
	env := func(x string, status int, h map[string]string) *capture.HTTP {
		return &capture.HTTP{Exchange: x, Method: "POST", Path: "/mcp", Status: status, Headers: h}
	}
	reqH := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer [present]", "Mcp-Method": "tools/call"}
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	recs := []capture.Record{
		{Type: capture.TypeFrame, Seq: 1, Time: ms(1), Dir: capture.C2S, HTTP: env("x1", 0, reqH),
			Msg: jsontext.Value(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)},
		{Type: capture.TypeFrame, Seq: 2, Time: ms(11), Dir: capture.S2C, HTTP: env("x1", 200, map[string]string{"Content-Type": "text/event-stream"}),
			Msg: jsontext.Value(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`)},
		{Type: capture.TypeFrame, Seq: 3, Time: ms(15), Dir: capture.S2C, HTTP: env("x1", 200, map[string]string{"Content-Type": "text/event-stream"}),
			Msg: jsontext.Value(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)},
		{Type: capture.TypeFrame, Seq: 4, Time: ms(20), Dir: capture.C2S, HTTP: env("x2", 0, reqH),
			Msg: jsontext.Value(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)},
		{Type: capture.TypeFrame, Seq: 5, Time: ms(21), Dir: capture.S2C, Text: "Unauthorized",
			HTTP: env("x2", 401, map[string]string{"WWW-Authenticate": `Bearer realm="r"`})},
		{Type: capture.TypeFrame, Seq: 6, Time: ms(30), Dir: capture.C2S, HTTP: env("x3", 0, reqH),
			Msg: jsontext.Value(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)},
	}
	out := render(t, hdr, recs)
	testbin.ValidateHAR(t, testbin.HARSchema(t), out)
	d := decode(t, out)
	type got struct {
		Method, URL, Started string
		ReqHeaders           []nameValue
		Post                 string
		Status               int
		StatusText, Mime     string
		Text                 string
		Timings              timings
		Time                 float64
	}
	var gots []got
	for _, e := range d.Log.Entries {
		g := got{Method: e.Request.Method, URL: e.Request.URL, Started: e.StartedDateTime, ReqHeaders: e.Request.Headers,
			Status: e.Response.Status, StatusText: e.Response.StatusText, Mime: e.Response.Content.MimeType,
			Text: e.Response.Content.Text, Timings: e.Timings, Time: e.Time}
		if e.Request.PostData != nil {
			g.Post = e.Request.PostData.MimeType + " " + e.Request.PostData.Text
		}
		gots = append(gots, g)
	}
	hs := []nameValue{{"Authorization", "Bearer [present]"}, {"Content-Type", "application/json"}, {"Mcp-Method", "tools/call"}}
	want := []got{
		{"POST", "http://upstream.example:8080/mcp", "2026-07-28T09:00:00.001Z", hs,
			`application/json {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`,
			200, "OK", "text/event-stream",
			"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n" +
				"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n",
			timings{Send: 0, Wait: 10, Receive: 4}, 14},
		{"POST", "http://upstream.example:8080/mcp", "2026-07-28T09:00:00.020Z", hs,
			`application/json {"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			401, "Unauthorized", "", "Unauthorized", timings{Send: 0, Wait: 1, Receive: 0}, 1},
		{"POST", "http://upstream.example:8080/mcp", "2026-07-28T09:00:00.030Z", hs,
			`application/json {"jsonrpc":"2.0","id":3,"method":"ping"}`,
			0, "", "", "", timings{Send: 0, Wait: -1, Receive: -1}, 0},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if strings.Contains(string(out), "REDACTED]@") {
		t.Errorf("the target's userinfo is in the archive:\n%s", out)
	}
}

// TestSchemaRejects: the schema the tests validate against does reject a
// broken archive (an entry without cache, a URL that is not a URI), so the
// validations above prove something.
func TestSchemaRejects(t *testing.T) {
	t.Parallel()
	s := testbin.HARSchema(t)
	good := string(render(t, &capture.Record{Type: capture.TypeSession, Time: t0, Format: 1, SessionID: "s"},
		[]capture.Record{{Type: capture.TypeFrame, Seq: 1, Time: t0, Dir: capture.C2S, Msg: jsontext.Value(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)}}))
	for name, bad := range map[string]string{
		"no cache": strings.Replace(good, `"cache": {},`, "", 1),
		"bad url":  strings.Replace(good, `mcp+stdio://stdio/ping`, `mcp+stdio://a b/%zz`, 1),
	} {
		if bad == good {
			t.Fatalf("%s: the replacement did not apply to\n%s", name, good)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(v) == nil {
			t.Errorf("%s: the schema accepts\n%s", name, bad)
		}
	}
}
