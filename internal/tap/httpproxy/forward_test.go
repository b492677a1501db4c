package httpproxy

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// canary is a credential value that must appear nowhere in a capture.
const canary = "CANARY-7f3a9c"

// forwardProxy starts a forward proxy capturing into a buffer and returns
// a client whose transport goes through it, trusting roots (nil: the
// system's) for the https origins it sees.
//
// The returned stop closes the client's connections, stops the server,
// waits for its handlers (a tunnel's outlives what httptest tracks) and
// ends the capture.
func forwardProxy(t *testing.T, fo *ForwardOptions, roots *x509.CertPool) (stop func(), buf *syncBuf, c *http.Client) {
	t.Helper()
	buf = new(syncBuf)
	p, err := New(&Options{Forward: fo, Capture: buf})
	if err != nil {
		t.Fatal(err)
	}
	var handlers sync.WaitGroup
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handlers.Add(1)
		defer handlers.Done()
		p.ServeHTTP(w, r)
	}))
	pu, _ := url.Parse(front.URL)
	tr := &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: &tls.Config{RootCAs: roots}}
	c = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	stop = func() {
		tr.CloseIdleConnections()
		front.Close()
		handlers.Wait()
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return stop, buf, c
}

// oauthOrigin answers like an OAuth-protected MCP server that is also its
// own authorization server; every answer carries canary credentials.
func oauthOrigin() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"resource":"http://`+r.Host+`/mcp","authorization_servers":["http://`+r.Host+`"]}`)
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"client_id":"c1","client_secret":"`+canary+`","echo":`+string(b)+`}`)
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:1/cb?code="+canary+"&state=s1", http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"`+canary+`","token_type":"Bearer","refresh_token":"`+canary+`","nested":{"id_token":"`+canary+`"}}`)
	})
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":"unauthorized"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	return mux
}

// flow runs an OAuth-shaped sequence against base through c and returns
// each answer's body, which must be what the origin sent.
func flow(t *testing.T, c *http.Client, base string) []string {
	t.Helper()
	reqs := []struct{ method, path, ctype, body, auth string }{
		{"POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ""},
		{"GET", "/.well-known/oauth-protected-resource/mcp", "", "", ""},
		{"POST", "/register", "application/json", `{"redirect_uris":["http://127.0.0.1:1/cb"],"client_secret":"` + canary + `"}`, ""},
		{"GET", "/authorize?response_type=code&code_challenge=abc&code_challenge_method=S256&state=s1&code=" + canary, "", "", ""},
		{"POST", "/token", "application/x-www-form-urlencoded", "grant_type=authorization_code&code=" + canary + "&code_verifier=" + canary + "&client_secret=" + canary + "&assertion=" + canary + "&resource=http%3A%2F%2Fx", ""},
		{"POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Bearer " + canary},
	}
	var out []string
	for _, q := range reqs {
		req, err := http.NewRequest(q.method, base+q.path, strings.NewReader(q.body))
		if err != nil {
			t.Fatal(err)
		}
		if q.body == "" {
			req.Body, req.ContentLength = http.NoBody, 0
		}
		if q.ctype != "" {
			req.Header.Set("Content-Type", q.ctype)
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		if q.auth != "" {
			req.Header.Set("Authorization", q.auth)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, resp.Status+" "+string(b))
	}
	return out
}

// direct runs flow without the proxy, for the answers to compare with;
// an https origin is an httptest TLS server.
func direct(t *testing.T, origin *httptest.Server) []string {
	c := &http.Client{Transport: origin.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return flow(t, c, origin.URL)
}

// shape is what a test compares of a record.
func shape(r *capture.Record) string {
	switch r.Type {
	case capture.TypeFrame:
		return "frame " + string(r.Dir) + " " + r.HTTP.Method + " " + r.HTTP.URL
	case capture.TypeExchange, capture.TypeTunnel:
		x := r.Exchange
		s := string(r.Type) + " " + x.Method + " " + x.URL
		if x.Refused != "" {
			s += " refused"
		}
		if x.Intercepted {
			s += " intercepted"
		}
		return s
	}
	return string(r.Type)
}

// flowRecords is the shape (see shape) of the records flow leaves
// through the proxy for origin o; mark ends each exchange record's line
// (" intercepted" for a decrypted tunnel).
func flowRecords(o, mark string) []string {
	return []string{
		"frame c2s POST " + o + "/mcp", "frame s2c POST " + o + "/mcp",
		"exchange GET " + o + "/.well-known/oauth-protected-resource/mcp" + mark,
		"exchange POST " + o + "/register" + mark,
		"exchange GET " + o + "/authorize?response_type=code&code_challenge=abc&code_challenge_method=S256&state=s1&code=[REDACTED]" + mark,
		"exchange POST " + o + "/token" + mark,
		"frame c2s POST " + o + "/mcp", "frame s2c POST " + o + "/mcp",
		"end"}
}

// TestForwardPlain: absolute-form requests reach their origin unchanged;
// MCP exchanges are frames with HTTP.URL, the others exchange records with
// every credential redacted, all in seq order.
func TestForwardPlain(t *testing.T) {
	origin := httptest.NewServer(oauthOrigin())
	defer origin.Close()
	want := direct(t, origin)
	stop, buf, c := forwardProxy(t, &ForwardOptions{}, nil)
	got := flow(t, c, origin.URL)
	stop()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers through the proxy differ from direct ones (-direct +proxied):\n%s", diff)
	}
	wantRecs := flowRecords(origin.URL, "")
	recs := buf.records(t)
	var shapes []string
	var last uint64
	for i := range recs {
		shapes = append(shapes, shape(&recs[i]))
		if s := recs[i].Seq; s != 0 {
			if s <= last {
				t.Errorf("seq %d after %d", s, last)
			}
			last = s
		}
	}
	if diff := cmp.Diff(wantRecs, shapes); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if bytes.Contains(buf.b.Bytes(), []byte(canary)) {
		t.Errorf("the canary is in the capture:\n%s", buf.b.Bytes())
	}
	tok := recs[5].Exchange
	if tok.Status != 200 || !strings.Contains(tok.ReqBody, "code=[REDACTED]") || !strings.Contains(tok.ReqBody, "resource=http%3A%2F%2Fx") ||
		!strings.Contains(tok.RespBody, `"access_token":"[REDACTED]"`) || !strings.Contains(tok.RespBody, `"id_token":"[REDACTED]"`) {
		t.Errorf("token exchange %+v", tok)
	}
	if auth := recs[4].Exchange; auth.Status != http.StatusFound || auth.RespHeaders["Location"] != "http://127.0.0.1:1/cb?code=[REDACTED]&state=s1" {
		t.Errorf("authorization exchange %+v", auth)
	}
	if f := recs[1]; f.HTTP.Status != 401 || f.HTTP.Headers["WWW-Authenticate"] == "" {
		t.Errorf("401 frame %+v", f.HTTP)
	}
}

// TestForwardAllowOrigin: a request or CONNECT for an origin outside the
// allowed ones gets 403 and an exchange record; an allowed one passes.
func TestForwardAllowOrigin(t *testing.T) {
	origin := httptest.NewServer(oauthOrigin())
	defer origin.Close()
	stop, buf, c := forwardProxy(t, &ForwardOptions{AllowOrigins: []string{origin.URL}}, nil)
	resp, err := c.Get(origin.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("allowed origin: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = c.Get("http://localhost:1/x")
	if err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("other origin: %v %v", resp, err)
	}
	resp.Body.Close()
	if _, err := c.Get("https://localhost:1/x"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Fatalf("CONNECT to another origin: %v, want Forbidden", err)
	}
	stop()
	var shapes []string
	for _, r := range buf.records(t) {
		shapes = append(shapes, shape(&r))
	}
	want := []string{"exchange GET " + origin.URL + "/.well-known/oauth-protected-resource/mcp",
		"exchange GET http://localhost:1/x refused", "exchange CONNECT localhost:1 refused", "end"}
	if diff := cmp.Diff(want, shapes); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestOriginSet(t *testing.T) {
	s, err := newOriginSet([]string{"https://a.example", "http://b.example:8080", "c.example:9"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		scheme, host string
		want         bool
	}{
		{"https", "a.example", true}, {"", "a.example:443", true}, {"http", "a.example", false},
		{"http", "b.example:8080", true}, {"", "b.example:8080", true}, {"https", "b.example:8080", false},
		{"http", "c.example:9", true}, {"", "c.example:9", true}, {"http", "d.example", false},
	} {
		if got := s.allows(tt.scheme, tt.host); got != tt.want {
			t.Errorf("allows(%q, %q) = %v", tt.scheme, tt.host, got)
		}
	}
	if _, err := newOriginSet([]string{"https://a.example/path"}); err == nil {
		t.Error("an origin with a path was accepted")
	}
}
