package httpproxy

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// answerUnread is a transport to the origin that answers 401 at once and
// never reads the request body: a server that answered before reading it.
type answerUnread struct{}

func (answerUnread) RoundTrip(r *http.Request) (*http.Response, error) {
	h := http.Header{}
	h.Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.URL.Host+`/.well-known/oauth-protected-resource/mcp"`)
	return &http.Response{StatusCode: http.StatusUnauthorized, Status: "401 Unauthorized", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: http.NoBody, ContentLength: 0, Request: r}, nil
}

// TestForwardEarlyAnswer: a JSON-RPC POST through the forward proxy whose
// origin answers 401 without reading the body (the order a race gave once
// in 29 runs, forced: the origin's transport never reads it), or cannot
// be reached (502). Whether the exchange is MCP is decided from the
// request (its body, read from the client), not from how much of it the
// origin read: the call is a request frame and a status frame, never a
// plain exchange record; the origin that answered unread is noted as
// such, and no note claims that an origin never reached left it unread.
func TestForwardEarlyAnswer(t *testing.T) {
	const msg = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close()

	for _, tc := range []struct {
		name, url string
		status    int
		transport http.RoundTripper
		unread    int // body-unread notes: the origin that answered did leave it
	}{
		{"401 before the body", "http://origin.test/mcp", http.StatusUnauthorized, answerUnread{}, 1},
		{"origin down", down + "/mcp", http.StatusBadGateway, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := new(syncBuf)
			p, err := New(&Options{Forward: &ForwardOptions{}, Capture: buf, Transport: tc.transport})
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(p)
			pu, _ := url.Parse(front.URL)
			tr := &http.Transport{Proxy: http.ProxyURL(pu)}
			req, err := http.NewRequest(http.MethodPost, tc.url, strings.NewReader(msg))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("client got %d, want %d", resp.StatusCode, tc.status)
			}
			tr.CloseIdleConnections()
			front.Close()
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			var got []string
			unread := 0
			for _, r := range buf.records(t) {
				switch r.Type {
				case capture.TypeFrame:
					got = append(got, string(r.Dir)+" "+string(r.Bytes()))
					if r.HTTP == nil || r.HTTP.URL != tc.url {
						t.Errorf("frame %d envelope %+v, want URL %s", r.Seq, r.HTTP, tc.url)
					} else if r.Dir == capture.S2C && r.HTTP.Status != tc.status {
						t.Errorf("status frame %d, want %d", r.HTTP.Status, tc.status)
					}
				case capture.TypeExchange:
					t.Errorf("the JSON-RPC POST was recorded as a plain exchange: %+v", r.Exchange)
				case capture.TypeNote:
					if r.Note == NoteBodyUnread {
						unread++
						t.Logf("note %s: %s", r.Note, r.Text)
					}
				}
			}
			if unread != tc.unread {
				t.Errorf("%d body-unread notes, want %d", unread, tc.unread)
			}
			if want := "c2s " + msg + "|s2c "; strings.Join(got, "|") != want {
				t.Errorf("frames %q, want the request and its status frame %q", got, want)
			}
		})
	}
}

func TestResourceMetadataParam(t *testing.T) {
	for v, want := range map[string]string{
		`Bearer resource_metadata="http://a/.well-known/x"`:                   "http://a/.well-known/x",
		`Bearer error="invalid_token", Resource_Metadata = "http://a/m", x=1`: "http://a/m",
		`Bearer resource_metadata=http://a/m, scope="s"`:                      "http://a/m",
		`Bearer realm="x"`:                   "",
		`Bearer resource_metadata="unclosed`: "",
		`Bearer resource_metadata`:           "",
	} {
		if got := resourceMetadata(v); got != want {
			t.Errorf("resourceMetadata(%q) = %q, want %q", v, got, want)
		}
	}
}
