package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// publishSchema is the request schema of the MCPcat API's events endpoint,
// written from its published OpenAPI document (see its SOURCE.md).
const publishSchema = "../../events/mcpcat/testdata/publish-event.schema.json"

// elicitTypes returns the event types the published event_type enum lacks.
func elicitTypes() []string { return []string{"mcp:elicitation/create", "mcp:elicitation/response"} }

// mcpcatAPI stands in for the MCPcat API: it validates each body against
// the published schema and answers 202, or 400 (invalid request data) as
// the hosted API documents, naming the event type, and keeps every
// request.
type mcpcatAPI struct {
	published, widened *jsonschema.Schema
	mu                 sync.Mutex
	posts              []mcpcatPost
}

type mcpcatPost struct {
	path, auth string
	body       []byte
	doc        map[string]any
	status     int
	invalid    error // what the published schema said
}

// compileSchemas compiles the published schema, and the same with the two
// elicitation types added to the event_type enum.
func compileSchemas(t *testing.T) (published, widened *jsonschema.Schema) {
	t.Helper()
	raw, err := os.ReadFile(publishSchema)
	if err != nil {
		t.Fatal(err)
	}
	compile := func(url string, widen bool) *jsonschema.Schema {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("reading %s: %v", publishSchema, err)
		}
		if widen {
			et := doc.(map[string]any)["properties"].(map[string]any)["event_type"].(map[string]any)
			for _, typ := range elicitTypes() {
				et["enum"] = append(et["enum"].([]any), typ)
			}
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("compiling %s: %v", publishSchema, err)
		}
		return s
	}
	return compile("file:///publish-event.json", false), compile("file:///publish-event-widened.json", true)
}

func (a *mcpcatAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p := mcpcatPost{path: r.Method + " " + r.URL.Path, auth: r.Header.Get("Authorization"), body: b, status: http.StatusAccepted}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err == nil {
		p.invalid = a.published.Validate(inst)
		err = json.Unmarshal(b, &p.doc) // numbers as float64, for the views
	}
	if err != nil {
		p.invalid = err
	}
	if p.invalid != nil {
		p.status = http.StatusBadRequest
	}
	a.mu.Lock()
	a.posts = append(a.posts, p)
	a.mu.Unlock()
	w.WriteHeader(p.status)
	if p.status == http.StatusAccepted {
		_, _ = io.WriteString(w, `{"status":"accepted"}`)
		return
	}
	said, _ := json.Marshal(map[string][]string{"event_type": {fmt.Sprintf("%q is not a valid choice.", str(p.doc["event_type"]))}})
	_, _ = w.Write(said)
}

// mcpcatCase is one session of TestMCPcat.
type mcpcatCase struct {
	name    string
	legacy  bool // 2025-11-25 and the book tool, else 2026-07-28 and confirm
	content bool // --events-content
}

// TestMCPcat runs go-sdk clients and servers through mcptrail
// --events-format mcpcat against a local stand-in of the API (2026-07-28
// with and without --events-content, and 2025-11-25), and checks every
// posted body against the API's published schema, the elicitation events'
// user_intent, parameters and response, that no answer value leaves
// without --events-content, and that the API's 400s for the elicitation
// types are reported once on stderr, in one line, and not retried.
func TestMCPcat(t *testing.T) {
	t.Parallel()
	for _, c := range []mcpcatCase{{"shapes", false, false}, {"content", false, true}, {"legacy", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := &mcpcatAPI{}
			a.published, a.widened = compileSchemas(t)
			srv := httptest.NewServer(a)
			defer srv.Close()
			stderr := runMCPcatSession(t, srv.URL, c)
			a.mu.Lock()
			defer a.mu.Unlock()
			checkMCPcatPosts(t, a, c)
			checkMCPcatStderr(t, stderr, srv.URL, len(a.posts), c)
		})
	}
}

func runMCPcatSession(t *testing.T, api string, c mcpcatCase) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	args := []string{"--capture", filepath.Join(dir, "session.jsonl"), "--events-format", "mcpcat",
		"--mcpcat-project", "proj_e2e", "--events-url", api}
	if c.content {
		args = append(args, "--events-content")
	}
	version, tool, answers := "2026-07-28", "confirm", []string{"accept", "decline"}
	args = append(args, "--", bins.sdkserver)
	if c.legacy {
		version, tool, answers = "2025-11-25", "book", []string{"accept"}
		args = append(args, "-legacy")
	}
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+dir, "MCPCAT_API_TOKEN=tok-e2e")
	stderr := new(testbin.Buffer)
	cmd.Stderr = stderr
	ans := newAnswerer()
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion},
		&mcp.ClientOptions{ElicitationHandler: ans.Handle})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateAfter},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.Bytes())
	}
	ans.Queue(answers...)
	for range answers {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool}); err != nil {
			t.Fatalf("calling %s: %v\n%s", tool, err, stderr.Bytes())
		}
	}
	// Close waits for mcptrail to exit, after its sinks flushed.
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v\n%s", err, stderr.Bytes())
	}
	return stderr.Bytes()
}

// mcpcatView is what the test compares of one posted event.
type mcpcatView struct {
	Path, Auth, Project, Type, Resource, Intent string
	Status                                      int
	Parameters, Response                        any
}

func checkMCPcatPosts(t *testing.T, a *mcpcatAPI, c mcpcatCase) {
	t.Helper()
	var got []mcpcatView
	sessions := map[any]bool{}
	for _, p := range a.posts {
		typ, _ := p.doc["event_type"].(string)
		elicit := slices.Contains(elicitTypes(), typ)
		// Every body is the API's schema; only the elicitation types are
		// outside its event_type enum, and nothing else is wrong with them.
		if err := a.widened.Validate(mustInstance(t, p.body)); err != nil {
			t.Errorf("body %s does not validate against the API's schema: %v", p.body, err)
		}
		if (p.invalid != nil) != elicit {
			t.Errorf("published schema on %s: %v", p.body, p.invalid)
		}
		sessions[p.doc["session_id"]] = true
		v := mcpcatView{Path: p.path, Auth: p.auth, Status: p.status}
		v.Project, _ = p.doc["project_id"].(string)
		v.Type, v.Resource = typ, str(p.doc["resource_name"])
		if elicit {
			v.Intent, v.Parameters, v.Response = str(p.doc["user_intent"]), p.doc["parameters"], p.doc["response"]
		}
		got = append(got, v)
		// The answers were {"ok":true} and {"guests":4}.
		if !c.content && (bytes.Contains(p.body, []byte(`"ok":true`)) || bytes.Contains(p.body, []byte(`"guests":4`))) {
			t.Errorf("without --events-content a body carries an answer value: %s", p.body)
		}
	}
	if len(sessions) != 1 {
		t.Errorf("bodies name %d session ids, want 1: %v", len(sessions), sessions)
	}
	if c.legacy {
		checkMCPcatLegacy(t, got)
	} else {
		checkMCPcatViews(t, got, c.content)
	}
}

func checkMCPcatViews(t *testing.T, got []mcpcatView, content bool) {
	t.Helper()
	question := map[string]any{"message": "Proceed?", "mode": "form",
		"requested_schema": map[string]any{"properties": map[string]any{"ok": "boolean"}, "required": []any{"ok"}}}
	accept := map[string]any{"action": "accept"}
	if content {
		accept["content"] = map[string]any{"ok": true}
	}
	post := func(typ, resource string, status int) mcpcatView {
		return mcpcatView{Path: "POST /v1/public/events/", Auth: "Token tok-e2e", Project: "proj_e2e", Type: typ, Resource: resource, Status: status}
	}
	create := post("mcp:elicitation/create", "confirm", 400)
	create.Intent, create.Parameters = "Proceed?", question
	accepted, declined := post("mcp:elicitation/response", "confirm", 400), post("mcp:elicitation/response", "confirm", 400)
	accepted.Intent, accepted.Parameters, accepted.Response = "Proceed?", question, accept
	declined.Intent, declined.Parameters, declined.Response = "Proceed?", question, map[string]any{"action": "decline"}
	call := post("mcp:tools/call", "confirm", 202)
	// The sink posts in the order the events were derived; it does not
	// send mcp:server/discover, a type the API does not list.
	want := []mcpcatView{create, accepted, call, create, declined, call}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("posted events (-want +got):\n%s", diff)
	}
}

// checkMCPcatLegacy checks a 2025-11-25 session's events: initialize,
// then book's question with its validation rule (minimum 1), its answer
// and the call.
func checkMCPcatLegacy(t *testing.T, got []mcpcatView) {
	t.Helper()
	post := func(typ, resource string, status int) mcpcatView {
		return mcpcatView{Path: "POST /v1/public/events/", Auth: "Token tok-e2e", Project: "proj_e2e", Type: typ, Resource: resource, Status: status}
	}
	question := map[string]any{"message": "How many guests?", "mode": "form",
		"requested_schema": map[string]any{"properties": map[string]any{"guests": "integer"}, "required": []any{"guests"}},
		"validation":       map[string]any{"guests": map[string]any{"minimum": 1.0}}}
	create, answered := post("mcp:elicitation/create", "book", 400), post("mcp:elicitation/response", "book", 400)
	create.Intent, create.Parameters = "How many guests?", question
	answered.Intent, answered.Parameters, answered.Response = "How many guests?", question, map[string]any{"action": "accept"}
	want := []mcpcatView{post("mcp:initialize", "", 202), create, answered, post("mcp:tools/call", "book", 202)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("posted events (-want +got):\n%s", diff)
	}
}

// checkMCPcatStderr checks that mcptrail reports what the sink did not
// deliver in exactly one line: the events the API rejected with 400 (not
// counted again as failed in a second, summary line), with what it
// answered, and the types it did not send; and that no 400 was retried.
func checkMCPcatStderr(t *testing.T, stderr []byte, api string, posts int, c mcpcatCase) {
	t.Helper()
	var got []string
	for line := range strings.Lines(string(stderr)) {
		if strings.HasPrefix(line, "mcptrail: ") {
			got = append(got, line)
		}
	}
	n, each, wantPosts, notSent := 4, 2, 6, "; 1 event not sent, of types the API does not list (mcp:server/discover)"
	if c.legacy {
		n, each, wantPosts, notSent = 2, 1, 4, ""
	}
	want := []string{fmt.Sprintf("mcptrail: events sink mcpcat: %d events rejected by the API at %s/v1/public/events/, not retried: "+
		"HTTP 400 for %d mcp:elicitation/create, %d mcp:elicitation/response (its published event_type enum does not list the elicitation types yet; "+
		`it answered: {"event_type":["\"mcp:elicitation/create\" is not a valid choice."]})%s`+"\n", n, api, each, each, notSent)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mcptrail's stderr lines (-want +got):\n%s\nstderr:\n%s", diff, stderr)
	}
	if posts != wantPosts {
		t.Errorf("%d posts, want %d (the 400s were retried?)", posts, wantPosts)
	}
}

func mustInstance(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return v
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
