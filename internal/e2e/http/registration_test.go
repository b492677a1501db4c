package http_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// The canaries of dynamic client registration (RFC 7591, 7592): the
// initial access token the client registers with (as a bearer token), the
// software statement it sends, and the registration access token the
// authorization server issues (in the register answer and in the answer of
// a read of the client's configuration).
const (
	regInitialCanary   = "reg-initial-canary-2b7f01"
	regStatementCanary = "reg-statement-canary-c3d9e4"
	regAccessCanary    = "reg-access-canary-9a04f6"
)

// registrationServer is an authorization server's registration endpoint:
// POST /register (bearer: the initial access token) and GET /register/c1
// (bearer: the registration access token), each answered with the client's
// configuration.
func registrationServer(t *testing.T) *httptest.Server {
	t.Helper()
	var base string
	config := func() []byte {
		b, err := json.Marshal(map[string]any{
			"client_id": "c1", "client_name": "registration e2e", "redirect_uris": []string{"http://127.0.0.1/cb"},
			"token_endpoint_auth_method": "none", "software_statement": regStatementCanary,
			"registration_access_token": regAccessCanary, "registration_client_uri": base + "/register/c1",
		})
		if err != nil {
			panic(err) // a map of strings
		}
		return b
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer "+regInitialCanary || !strings.Contains(string(body), regStatementCanary) {
			http.Error(w, `{"error":"invalid_client_metadata"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		w.Write(config())
	})
	mux.HandleFunc("GET /register/c1", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+regAccessCanary {
			http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(config())
	})
	ts := httptest.NewServer(mux)
	base = ts.URL
	t.Cleanup(ts.Close)
	return ts
}

// TestForwardRegistration: a client registers through the real `mcptrail
// http --forward` (RFC 7591, an initial access token as its bearer token
// and a software statement in its metadata) and reads its configuration
// back (RFC 7592, with the registration access token it was issued). The
// forwarded bytes are untouched; the exchange records, the exports and the
// HAR hold none of the three credentials, and keep what is not secret.
func TestForwardRegistration(t *testing.T) {
	t.Parallel()
	as := registrationServer(t)
	tp := startForward(t, "--allow-origin", as.URL)
	proxy, err := url.Parse("http://" + tp.addr)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	defer hc.CloseIdleConnections()
	metadata := `{"client_name":"registration e2e","redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none","software_statement":"` + regStatementCanary + `"}`
	got := registrationCall(t, hc, "POST", as.URL+"/register", regInitialCanary, metadata, http.StatusCreated)
	var answer struct {
		Token string `json:"registration_access_token"`
		URI   string `json:"registration_client_uri"`
	}
	if err := json.Unmarshal(got, &answer); err != nil || answer.Token != regAccessCanary {
		t.Fatalf("the client did not get the server's answer as sent: %s (%v)", got, err)
	}
	registrationCall(t, hc, "GET", answer.URI, answer.Token, "", http.StatusOK)
	hc.CloseIdleConnections()
	tp.stop(t)

	file, err := os.ReadFile(tp.capture)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{regInitialCanary, regStatementCanary, regAccessCanary} {
		testbin.NoCanary(t, c, "the capture", string(file))
		testbin.NoCanary(t, c, "the JSON export", string(runExport(t, tp.capture)))
		testbin.NoCanary(t, c, "the HAR", string(exportHAR(t, tp.capture)))
	}
	var xs []*capture.Exchange
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeExchange {
			xs = append(xs, r.Exchange)
		}
	}
	if len(xs) != 2 {
		t.Fatalf("%d exchange records, want 2 (register, read)", len(xs))
	}
	for _, x := range xs {
		if x.ReqHeaders["Authorization"] != "Bearer [present]" || !strings.Contains(x.RespBody, `"registration_access_token":"[REDACTED]"`) ||
			!strings.Contains(x.RespBody, `"registration_client_uri":"`+answer.URI+`"`) || !strings.Contains(x.RespBody, `"client_id":"c1"`) {
			t.Errorf("exchange %s %s: auth %q, answer %s", x.Method, x.URL, x.ReqHeaders["Authorization"], x.RespBody)
		}
	}
	if !strings.Contains(xs[0].ReqBody, `"software_statement":"[REDACTED]"`) || !strings.Contains(xs[0].ReqBody, `"client_name":"registration e2e"`) {
		t.Errorf("the register request is recorded as %s", xs[0].ReqBody)
	}
	testbin.ValidateHAR(t, testbin.HARSchema(t), exportHAR(t, tp.capture))
}

// registrationCall sends a request with a bearer token (and a JSON body
// when body is not empty), requires status, and returns the answer's body.
func registrationCall(t *testing.T, hc *http.Client, method, u, bearer, body string, status int) []byte {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d %s, want %d", method, u, resp.StatusCode, got, status)
	}
	return got
}
