package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// requestLog records the requests a test server received.
type requestLog struct {
	mu   sync.Mutex
	reqs []string // "METHOD PATH X-Api-Key=… Authorization=…"
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r.Method+" "+r.URL.Path+" X-Api-Key="+r.Header.Get("X-Api-Key")+" Authorization="+r.Header.Get("Authorization"))
}

func (l *requestLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs...)
}

// TestEventsRedirectNotFollowed runs the real proxy with each network
// events sink (--events-url, --events-format mcpcat, --otlp-endpoint over
// HTTP) pointed at a receiver that answers every POST with a 307 or 308 to
// another host:port: the other server must receive nothing (neither the
// events nor the X-Api-Key or token), the first must have been asked, and
// the JSON and MCPcat sinks say on stderr that the redirect was refused.
func TestEventsRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	var in []byte
	for id := 1; id <= 5; id++ {
		in = appendRequest(in, id)
	}
	sinks := []struct {
		name   string
		args   func(url string) []string
		stderr string // what stderr must say; "" for OTLP, whose SDK reports errors its own way
	}{
		{"json", func(u string) []string {
			return []string{"--events-url", u + "/events", "--events-header", "X-Api-Key=sekrit"}
		}, "another origin"},
		{"mcpcat", func(u string) []string {
			return []string{"--events-format", "mcpcat", "--events-url", u, "--mcpcat-project", "proj_1", "--mcpcat-token", "sekrit"}
		}, "another origin"},
		{"otlp", func(u string) []string {
			return []string{"--otlp-endpoint", u, "--otlp-header", "X-Api-Key=sekrit"}
		}, ""},
	}
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, sk := range sinks {
			t.Run(sk.name+"/"+http.StatusText(status), func(t *testing.T) {
				t.Parallel()
				var first, other requestLog
				elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.add(r) }))
				defer elsewhere.Close()
				redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					first.add(r)
					http.Redirect(w, r, elsewhere.URL+r.URL.Path, status)
				}))
				defer redirector.Close()
				args := append([]string{"--capture", filepath.Join(t.TempDir(), "c.jsonl"), "--events-flush-timeout", "3s"}, sk.args(redirector.URL)...)
				_, stderr, code := runProxy(t, nil, string(in), append(args, "--", bins.fastserver)...)
				if code != 0 {
					t.Fatalf("exit %d; stderr:\n%s", code, stderr)
				}
				if got := other.list(); len(got) != 0 {
					t.Errorf("the redirect's target received %d requests: %q", len(got), got)
				}
				got := first.list()
				if len(got) == 0 {
					t.Fatal("the events endpoint received nothing")
				}
				if !strings.Contains(got[0], "sekrit") {
					t.Errorf("the events endpoint got %q, without the configured header", got[0])
				}
				if sk.stderr != "" && !strings.Contains(stderr, sk.stderr) {
					t.Errorf("stderr does not say %q:\n%s", sk.stderr, stderr)
				}
			})
		}
	}
}
