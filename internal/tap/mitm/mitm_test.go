package mitm

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// openTest opens a new authority in a fresh directory.
func openTest(t testing.TB) *Authority {
	t.Helper()
	a, err := Open(filepath.Join(t.TempDir(), "ca"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// caPool is a pool holding only the certificate at a's CertPath.
func caPool(t testing.TB, a *Authority) *x509.CertPool {
	t.Helper()
	b, err := os.ReadFile(a.CertPath())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		t.Fatalf("%s holds no PEM certificate", a.CertPath())
	}
	return pool
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Unix permission bits")
	}
	dir := filepath.Join(t.TempDir(), "state", "ca")
	a, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.CertPath() != filepath.Join(dir, "cert.pem") {
		t.Errorf("CertPath = %q", a.CertPath())
	}
	want := map[string]os.FileMode{".": 0o700, "key.pem": 0o600, "cert.pem": 0o644}
	got := map[string]os.FileMode{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append([]string{"."}, names(entries)...) {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got[name] = fi.Mode().Perm()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modes in %s (-want +got):\n%s", dir, diff)
	}
}

func names(entries []os.DirEntry) []string {
	var s []string
	for _, e := range entries {
		s = append(s, e.Name())
	}
	return s
}

func TestReopenLoadsSameCA(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ca")
	a, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(a.CertPath())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(b.CertPath())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("second Open changed the CA certificate")
	}
	if !a.key.Equal(b.key) {
		t.Error("second Open has another key")
	}
	// A leaf minted by the reopened authority verifies against the first's file.
	cfg, err := b.ServerConfig("example.test")
	if err != nil {
		t.Fatal(err)
	}
	opts := x509.VerifyOptions{DNSName: "example.test", Roots: caPool(t, a)}
	if _, err := cfg.Certificates[0].Leaf.Verify(opts); err != nil {
		t.Error(err)
	}
}

func TestLeafVerifies(t *testing.T) {
	t.Parallel()
	a := openTest(t)
	roots := caPool(t, a)
	tests := []struct {
		host, name string // what is asked for, what a client checks
	}{
		{"mcp.example.com", "mcp.example.com"},
		{"MCP.Example.COM.", "mcp.example.com"},
		{"localhost", "localhost"},
		{"127.0.0.1", "127.0.0.1"},
		{"[::1]", "::1"},
		{"::1", "::1"},
		{"fe80::1%eth0", "fe80::1"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			cfg, err := a.ServerConfig(tt.host)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"http/1.1"}, cfg.NextProtos); diff != "" {
				t.Errorf("NextProtos (-want +got):\n%s", diff)
			}
			if cfg.MinVersion != tls.VersionTLS12 {
				t.Errorf("MinVersion = %#x", cfg.MinVersion)
			}
			leaf := cfg.Certificates[0].Leaf
			opts := x509.VerifyOptions{DNSName: tt.name, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
			if _, err := leaf.Verify(opts); err != nil {
				t.Fatal(err)
			}
			if ip := net.ParseIP(tt.name); ip != nil && (len(leaf.IPAddresses) != 1 || len(leaf.DNSNames) != 0) {
				t.Errorf("IP literal %s: IP SANs %v, DNS SANs %v", tt.host, leaf.IPAddresses, leaf.DNSNames)
			}
			if life := leaf.NotAfter.Sub(leaf.NotBefore); life > 31*24*time.Hour {
				t.Errorf("leaf valid for %v", life)
			}
		})
	}
}

func TestServerConfigRefusesNonHost(t *testing.T) {
	t.Parallel()
	a := openTest(t)
	for _, host := range []string{"", "example.com:443", "a b", "http://x"} {
		if _, err := a.ServerConfig(host); err == nil {
			t.Errorf("ServerConfig(%q) succeeded", host)
		}
	}
	if n := a.Minted(); n != 0 {
		t.Errorf("Minted = %d after refusals, want 0", n)
	}
}

func TestMintOncePerHost(t *testing.T) {
	t.Parallel()
	a := openTest(t)
	hosts := []string{"a.example", "b.example", "A.example"} // A is a's spelling
	const callers = 50
	certs := make([][]byte, callers*len(hosts))
	var wg sync.WaitGroup
	errs := make(chan error, len(certs))
	for i := range certs {
		wg.Go(func() {
			cfg, err := a.ServerConfig(hosts[i%len(hosts)])
			if err != nil {
				errs <- err
				return
			}
			certs[i] = cfg.Certificates[0].Certificate[0]
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := a.Minted(); n != 2 {
		t.Errorf("Minted = %d after %d calls for 2 hosts, want 2", n, len(certs))
	}
	distinct := map[string]bool{}
	for _, c := range certs {
		distinct[string(c)] = true
	}
	if len(distinct) != 2 {
		t.Errorf("%d distinct leaves handed out, want 2", len(distinct))
	}
}

func TestLeafRenewedNearItsEnd(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	a, err := open(filepath.Join(t.TempDir(), "ca"), nil, clock)
	if err != nil {
		t.Fatal(err)
	}
	first, err := a.ServerConfig("example.test")
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(leafLifetime - leafRenew/2)
	mu.Unlock()
	second, err := a.ServerConfig("example.test")
	if err != nil {
		t.Fatal(err)
	}
	if a.Minted() != 2 || !second.Certificates[0].Leaf.NotAfter.After(first.Certificates[0].Leaf.NotAfter) {
		t.Errorf("Minted = %d; a leaf near its end was not replaced", a.Minted())
	}
}

// TestHandshake serves HTTPS with a leaf from ServerConfig: a client
// trusting only the CA file gets through, one trusting nothing does not.
func TestHandshake(t *testing.T) {
	t.Parallel()
	a := openTest(t)
	cfg, err := a.ServerConfig("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s", r.Proto, r.TLS.NegotiatedProtocol)
	}))
	srv.TLS = cfg
	srv.StartTLS()
	t.Cleanup(srv.Close)

	get := func(roots *x509.CertPool) (string, error) {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr}).Get(srv.URL)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var body bytes.Buffer
		_, err = body.ReadFrom(resp.Body)
		return body.String(), err
	}
	body, err := get(caPool(t, a))
	if err != nil {
		t.Fatalf("client trusting the CA: %v", err)
	}
	if body != "HTTP/1.1 http/1.1" {
		t.Errorf("body = %q, want HTTP/1.1 over ALPN http/1.1", body)
	}
	_, err = get(x509.NewCertPool())
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("client trusting nothing: err = %v, want an unknown authority", err)
	}
}
