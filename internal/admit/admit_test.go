package admit

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheck: the Host must name the listener; an Origin, when present,
// must be loopback, the listener itself or listed.
func TestCheck(t *testing.T) {
	t.Parallel()
	p, err := New(&Options{Hosts: []string{"127.0.0.1:7000", "localhost:7000", "mcp.internal"},
		Origins: []string{"https://app.example.com", "HTTP://Tool.Example:8080/"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		host   string
		origin []string
		want   string // the refusal's kind, "" when admitted
	}{
		{"127.0.0.1:7000", nil, ""},
		{"LOCALHOST:7000", nil, ""},
		{"mcp.internal:1234", nil, ""},
		{"evil.example:7000", nil, KindHost},
		{"127.0.0.1:7001", nil, KindHost},
		{"evil.example:7000", []string{"http://evil.example:7000"}, KindHost},
		{"127.0.0.1:7000", []string{"http://localhost:6274"}, ""},
		{"127.0.0.1:7000", []string{"http://127.0.0.1:6274"}, ""},
		{"127.0.0.1:7000", []string{"http://[::1]:6274"}, ""},
		{"127.0.0.1:7000", []string{"http://127.0.0.1:7000"}, ""},
		{"mcp.internal:80", []string{"http://mcp.internal"}, ""},
		{"127.0.0.1:7000", []string{"https://app.example.com"}, ""},
		{"127.0.0.1:7000", []string{"https://app.example.com:443"}, ""},
		{"127.0.0.1:7000", []string{"http://tool.example:8080"}, ""},
		{"127.0.0.1:7000", []string{"https://evil.example"}, KindOrigin},
		{"127.0.0.1:7000", []string{"http://app.example.com"}, KindOrigin},
		{"127.0.0.1:7000", []string{"http://localhost.evil.example"}, KindOrigin},
		{"127.0.0.1:7000", []string{"null"}, KindOrigin},
		{"127.0.0.1:7000", []string{""}, KindOrigin},
		{"127.0.0.1:7000", []string{"http://localhost:6274", "https://evil.example"}, KindOrigin},
		{"mcp.internal:81", []string{"http://mcp.internal"}, KindOrigin},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.Host = tt.host
		for _, o := range tt.origin {
			r.Header.Add("Origin", o)
		}
		got := ""
		if ref := p.Check(r); ref != nil {
			got = ref.Kind
			if ref.Status != http.StatusForbidden {
				t.Errorf("Host %q Origin %q: status %d, want 403", tt.host, tt.origin, ref.Status)
			}
		}
		if got != tt.want {
			t.Errorf("Host %q Origin %q: refusal %q, want %q", tt.host, tt.origin, got, tt.want)
		}
	}
}

// TestCheckAnyHost: without a host list every Host passes, and then a
// foreign origin naming the Host is not the listener's own.
func TestCheckAnyHost(t *testing.T) {
	t.Parallel()
	p, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Host = "evil.example:9"
	if ref := p.Check(r); ref != nil {
		t.Errorf("no Origin: %+v, want admitted", ref)
	}
	r.Header.Set("Origin", "http://evil.example:9")
	if ref := p.Check(r); ref == nil || ref.Kind != KindOrigin {
		t.Errorf("foreign Origin: %+v, want an origin refusal", ref)
	}
	var nilPolicy *Policy
	if ref := nilPolicy.Check(r); ref != nil {
		t.Errorf("nil policy: %+v, want admitted", ref)
	}
}

// TestCheckJSON: a POST must be application/json; other methods pass.
func TestCheckJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		method, ct string
		ok         bool
	}{
		{"POST", "application/json", true},
		{"POST", "Application/JSON; charset=utf-8", true},
		{"POST", " application/json ;charset=UTF-8", true},
		{"POST", "text/plain", false},
		{"POST", "text/plain;charset=UTF-8", false},
		{"POST", "application/x-www-form-urlencoded", false},
		{"POST", "multipart/form-data; boundary=x", false},
		{"POST", "application/jsonx", false},
		{"POST", "", false},
		{"GET", "", true},
		{"DELETE", "text/plain", true},
	} {
		r := httptest.NewRequest(tt.method, "/mcp", nil)
		if tt.ct != "" {
			r.Header.Set("Content-Type", tt.ct)
		}
		ref := CheckJSON(r)
		if (ref == nil) != tt.ok {
			t.Errorf("%s Content-Type %q: %+v, want ok=%v", tt.method, tt.ct, ref, tt.ok)
		}
		if ref != nil && (ref.Status != http.StatusUnsupportedMediaType || ref.Kind != KindContentType) {
			t.Errorf("%s Content-Type %q: %+v, want 415 content-type", tt.method, tt.ct, ref)
		}
	}
}

// TestHandler: a refused request never reaches the handler and gets its
// status; an admitted one does.
func TestHandler(t *testing.T) {
	t.Parallel()
	p, err := New(&Options{Hosts: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	h := p.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { reached++ }), true)
	send := func(host, origin, ct string) int {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Host = host
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	got := []int{
		send("127.0.0.1:1", "", "application/json"),
		send("evil.example:1", "", "application/json"),
		send("127.0.0.1:1", "https://evil.example", "application/json"),
		send("127.0.0.1:1", "", "text/plain"),
	}
	if d := cmp.Diff([]int{200, 403, 403, 415}, got); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	if reached != 1 {
		t.Errorf("the handler was reached %d times, want 1", reached)
	}
}

// TestNewRefusesBadOrigin: an allowed origin must be scheme://host[:port].
func TestNewRefusesBadOrigin(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"app.example.com", "https://app.example.com/path", "null", "https://u@h", "https://h?q=1"} {
		if _, err := New(&Options{Origins: []string{o}}); err == nil {
			t.Errorf("origin %q accepted", o)
		}
	}
}

// TestListenerHosts: a loopback listener is named by its address and the
// localhost forms; another by its address alone, plus extra.
func TestListenerHosts(t *testing.T) {
	t.Parallel()
	got := ListenerHosts(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7000}, []string{"MCP.Internal"})
	want := []string{"127.0.0.1:7000", "localhost:7000", "127.0.0.1:7000", "[::1]:7000", "mcp.internal"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("loopback (-want +got):\n%s", d)
	}
	got = ListenerHosts(&net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 80}, nil)
	if d := cmp.Diff([]string{"192.0.2.7:80"}, got); d != "" {
		t.Errorf("192.0.2.7 (-want +got):\n%s", d)
	}
}

// TestUnspecified: every spelling of "every interface" is one.
func TestUnspecified(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{"": true, "0.0.0.0": true, "::": true, "[::]": true, "0:0:0:0:0:0:0:0": true,
		"127.0.0.1": false, "192.0.2.7": false, "localhost": false, "::1": false} {
		if got := Unspecified(host); got != want {
			t.Errorf("Unspecified(%q) = %v, want %v", host, got, want)
		}
	}
}
