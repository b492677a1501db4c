package replay_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/store"
)

// allowHint ends each line of a call skipped as destructive.
const allowHint = " (pass --allow-destructive to send it)"

// sentCalls lists the client calls of the capture at path (an MRTR
// operation once), "method target" each, in order.
func sentCalls(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the new capture: %v", err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(r, nil)
	if err != nil {
		t.Fatalf("store.Load: %v", err)
	}
	var out []string
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		if c.Dir == capture.C2S && c.Round <= 1 {
			out = append(out, strings.TrimSpace(c.Method+" "+c.Target))
		}
	}
	return out
}

// noListRecording records the era's session without the client's
// tools/list: the capture has no catalog to judge a tool by.
func noListRecording(t *testing.T, legacy bool) string {
	t.Helper()
	path, err := recordTo(t.TempDir(), legacy, false)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// eraTools are the tools each era's recording calls, and its handshake.
func eraTools(legacy bool) (handshake string, tools []string) {
	if legacy {
		return "initialize", []string{"book"}
	}
	return "server/discover", []string{"confirm", "chained"}
}

// checkSkipped checks that stdout names each tool's call skipped with why,
// and that the new capture holds no call of any of them.
func checkSkipped(t *testing.T, o outcome, tools []string, why string) {
	t.Helper()
	for _, tool := range tools {
		line := regexp.MustCompile(`(?m)^skipped call \d+ tools/call ` + tool + `: ` + regexp.QuoteMeta(why+allowHint) + `$`)
		if !line.MatchString(o.stdout) {
			t.Errorf("stdout does not say tools/call %s was skipped because %s\nstdout:\n%s\nstderr:\n%s", tool, why, o.stdout, o.stderr)
		}
	}
	for _, c := range sentCalls(t, o.capture) {
		if name, ok := strings.CutPrefix(c, "tools/call "); ok && slices.Contains(tools, name) {
			t.Errorf("the server was sent %s", c)
		}
	}
}

// TestReplayJudgesByServer replays a recording without a tools/list (no
// catalog) against the server whose own tools/list annotates every tool
// destructiveHint: true: replay lists the tools itself and skips each call,
// saying why, and exits 0 (nothing it sent differs). --allow-destructive
// sends them and lists nothing of its own. Against the server that lists
// them readOnlyHint: true every call is sent, and the replay's own
// tools/list is not reported as a difference.
func TestReplayJudgesByServer(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			rec := noListRecording(t, era.legacy)
			handshake, tools := eraTools(era.legacy)
			server := func(listing string) []string {
				return append([]string{"--", bins.sdkserver, "-listing", listing}, era.server...)
			}

			o := runReplay(t, append([]string{rec, "--slower-than", "0"}, server(sdkpeer.ListingDestructive)...)...)
			if o.code != 0 {
				t.Errorf("replay exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			checkSkipped(t, o, tools, "the server's tools/list annotates the tool destructiveHint: true")
			if got, want := sentCalls(t, o.capture), []string{handshake, "tools/list"}; !slices.Equal(got, want) {
				t.Errorf("the server was sent %q, want %q", got, want)
			}

			o = runReplay(t, append([]string{rec, "--slower-than", "0", "--allow-destructive"}, server(sdkpeer.ListingDestructive)...)...)
			want := []string{handshake}
			for _, tool := range tools {
				want = append(want, "tools/call "+tool)
			}
			if got := sentCalls(t, o.capture); o.code != 0 || o.stdout != "" || !slices.Equal(got, want) {
				t.Errorf("with --allow-destructive replay exited %d and sent %q, want 0, nothing on stdout and %q\nstdout:\n%s\nstderr:\n%s",
					o.code, got, want, o.stdout, o.stderr)
			}

			o = runReplay(t, append([]string{rec, "--slower-than", "0"}, server(sdkpeer.ListingReadOnly)...)...)
			want = slices.Insert(want, 1, "tools/list")
			if got := sentCalls(t, o.capture); o.code != 0 || o.stdout != "" || !slices.Equal(got, want) {
				t.Errorf("against read-only tools replay exited %d and sent %q, want 0, nothing on stdout and %q\nstdout:\n%s\nstderr:\n%s",
					o.code, got, want, o.stdout, o.stderr)
			}
		})
	}
}

// TestReplayUnannotatedSkipped replays each era's recording (its
// tools/list lists tools without annotations) against the same server:
// MCP assumes such a tool destructive, so every call is skipped, saying
// why; nothing sent differs, exit 0.
func TestReplayUnannotatedSkipped(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			_, tools := eraTools(era.legacy)
			o := runReplay(t, append([]string{recording(t, era.legacy), "--slower-than", "0", "--", bins.sdkserver}, era.server...)...)
			if o.code != 0 {
				t.Errorf("replay exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			checkSkipped(t, o, tools, "the server's tools/list gives the tool no readOnlyHint: true or destructiveHint: false, so MCP assumes it destructive")
		})
	}
}

// TestReplayRepeatedMembers replays a recording whose tools/list gives
// confirm {"destructiveHint":false,"destructiveHint":true} and chained
// {"readOnlyHint":false,"readOnlyHint":true} against the server that lists
// no tool (the capture's word is all there is): read as JavaScript clients
// read it, the last member wins, so confirm is skipped and chained sent.
// The tools/list answer differs from the recording's, so replay exits 1.
func TestReplayRepeatedMembers(t *testing.T) {
	t.Parallel()
	rec := rewrite(t, recording(t, false), func(ls []string) string {
		for i, l := range ls {
			if strings.Contains(l, `"tools":[`) {
				l = strings.Replace(l, `"name":"confirm"`, `"name":"confirm","annotations":{"destructiveHint":false,"destructiveHint":true}`, 1)
				ls[i] = strings.Replace(l, `"name":"chained"`, `"name":"chained","annotations":{"readOnlyHint":false,"readOnlyHint":true}`, 1)
			}
		}
		return strings.Join(ls, "\n") + "\n"
	})
	if b, _ := os.ReadFile(rec); !strings.Contains(string(b), `"destructiveHint":false,"destructiveHint":true`) {
		t.Fatalf("could not annotate the recording:\n%s", b)
	}
	o := runReplay(t, rec, "--slower-than", "0", "--", bins.sdkserver, "-listing", sdkpeer.ListingHidden)
	if o.code != 1 || !strings.Contains(o.stdout, "tools/list") {
		t.Errorf("replay exited %d, want 1 with the tools/list answer changed\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	checkSkipped(t, o, []string{"confirm"}, "the server's tools/list does not list the tool, and the capture's annotates the tool destructiveHint: true")
	if got := sentCalls(t, o.capture); !slices.Contains(got, "tools/call chained") {
		t.Errorf("the server was sent %q, want tools/call chained among them\nstdout:\n%s", got, o.stdout)
	}
}

// serveListingHTTP is serveHTTP with the server's tools/list changed by
// listing (sdkpeer.ApplyListing).
func serveListingHTTP(t *testing.T, legacy bool, listing string) string {
	t.Helper()
	srv := sdkpeer.NewServer(legacy)
	if err := sdkpeer.ApplyListing(srv, listing); err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: !legacy})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// TestReplayHTTPJudgesByServer is TestReplayJudgesByServer's first case
// over Streamable HTTP: replay lists the tools with a POST of its own and
// skips every call the server annotates destructiveHint: true.
func TestReplayHTTPJudgesByServer(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			rec := noListRecording(t, era.legacy)
			handshake, tools := eraTools(era.legacy)
			o := runReplay(t, rec, "--slower-than", "0", "--target", serveListingHTTP(t, era.legacy, sdkpeer.ListingDestructive))
			if o.code != 0 {
				t.Errorf("replay exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			checkSkipped(t, o, tools, "the server's tools/list annotates the tool destructiveHint: true")
			if got, want := sentCalls(t, o.capture), []string{handshake, "tools/list"}; !slices.Equal(got, want) {
				t.Errorf("the server was sent %q, want %q", got, want)
			}
		})
	}
}
