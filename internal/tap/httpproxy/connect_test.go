package httpproxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// testCA is a throwaway certificate authority standing in for
// internal/tap/mitm: its ServerConfig mints a leaf for any host.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newTestCA(t testing.TB) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mcptrail test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key}
}

func (ca *testCA) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.cert)
	return p
}

// serverConfig mints a leaf for host.
func (ca *testCA) serverConfig(host string) (*tls.Config, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, err
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, nil
}

// originPool is the pool that trusts an httptest TLS server.
func originPool(s *httptest.Server) *x509.CertPool {
	return s.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
}

// TestConnectBlind: an https request goes through a CONNECT tunnel the
// proxy relays blind; the tunnel record counts its bytes.
func TestConnectBlind(t *testing.T) {
	origin := httptest.NewTLSServer(oauthOrigin())
	defer origin.Close()
	want := direct(t, origin)
	stop, buf, c := forwardProxy(t, &ForwardOptions{}, originPool(origin))
	got := flow(t, c, origin.URL)
	stop()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-direct +proxied):\n%s", diff)
	}
	recs := buf.records(t)
	host := strings.TrimPrefix(origin.URL, "https://")
	if len(recs) != 2 || recs[0].Type != capture.TypeTunnel {
		t.Fatalf("records: %+v", recs)
	}
	x := recs[0].Exchange
	if x.Method != "CONNECT" || x.URL != host || x.Status != 200 || x.BytesUp < 500 || x.BytesDown < 500 || x.DurationUS <= 0 {
		t.Errorf("tunnel %+v", x)
	}
}

// TestConnectIntercept: with Intercept, the proxy terminates the tunnel's
// TLS with a leaf of its CA, verifies the origin's certificate against
// RootCAs, and captures the inner exchanges as https ones.
func TestConnectIntercept(t *testing.T) {
	origin := httptest.NewTLSServer(oauthOrigin())
	defer origin.Close()
	want := direct(t, origin)
	ca := newTestCA(t)
	fo := &ForwardOptions{Intercept: ca.serverConfig, RootCAs: originPool(origin)}
	stop, buf, c := forwardProxy(t, fo, ca.pool())
	got := flow(t, c, origin.URL)
	stop()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-direct +proxied):\n%s", diff)
	}
	wantRecs := flowRecords(origin.URL, " intercepted")
	var shapes []string
	for _, r := range buf.records(t) {
		shapes = append(shapes, shape(&r))
	}
	if diff := cmp.Diff(wantRecs, shapes); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if bytes.Contains(buf.b.Bytes(), []byte(canary)) {
		t.Errorf("the canary is in the capture")
	}
}

// TestConnectInterceptVerifiesOrigin: the upstream connection of an
// intercepted tunnel verifies the origin's certificate: an origin the
// proxy does not trust gets the client a 502, and the record says why.
func TestConnectInterceptVerifiesOrigin(t *testing.T) {
	origin := httptest.NewTLSServer(oauthOrigin())
	defer origin.Close()
	ca := newTestCA(t)
	stop, buf, c := forwardProxy(t, &ForwardOptions{Intercept: ca.serverConfig, RootCAs: x509.NewCertPool()}, ca.pool())
	resp, err := c.Get(origin.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	stop()
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("status %d, want 502", resp.StatusCode)
	}
	recs := buf.records(t)
	if len(recs) != 2 || recs[0].Exchange == nil || !strings.Contains(recs[0].Exchange.Error, "certificate") {
		t.Errorf("records %+v", recs)
	}
}

// TestConnectInterceptUntrusted: a client that does not trust the CA fails
// its handshake; the capture says so in an intercept-failed note.
func TestConnectInterceptUntrusted(t *testing.T) {
	origin := httptest.NewTLSServer(oauthOrigin())
	defer origin.Close()
	ca := newTestCA(t)
	stop, buf, c := forwardProxy(t, &ForwardOptions{Intercept: ca.serverConfig, RootCAs: originPool(origin)}, originPool(origin))
	if _, err := c.Get(origin.URL + "/.well-known/oauth-protected-resource/mcp"); err == nil {
		t.Fatal("a client that does not trust the CA got an answer")
	}
	stop()
	var notes []string
	for _, r := range buf.records(t) {
		if r.Type == capture.TypeNote {
			notes = append(notes, r.Note)
		}
	}
	if diff := cmp.Diff([]string{NoteInterceptFailed}, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// connectClient is a client that reaches every origin through a CONNECT
// tunnel of the proxy c uses, even a plain http one (as undici does), and
// speaks plain HTTP inside it.
func connectClient(t *testing.T, c *http.Client) *http.Client {
	t.Helper()
	pu, err := c.Transport.(*http.Transport).Proxy(nil)
	if err != nil {
		t.Fatal(err)
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, pu.Host)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", addr, addr)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != http.StatusOK || br.Buffered() != 0 {
			_ = conn.Close()
			return nil, fmt.Errorf("CONNECT %s: %v %v", addr, resp, err)
		}
		return conn, nil
	}
	return &http.Client{Transport: &http.Transport{DialContext: dial}, CheckRedirect: c.CheckRedirect}
}

// TestConnectPlainHTTP: a client that sends plain HTTP inside a CONNECT
// tunnel (undici's default for http:// origins through a proxy, which
// mcp-remote cannot change) is served like absolute-form requests: frames
// and exchange records, no blind tunnel, blind or with --intercept-all.
func TestConnectPlainHTTP(t *testing.T) {
	origin := httptest.NewServer(oauthOrigin())
	defer origin.Close()
	want := direct(t, origin)
	o := origin.URL
	wantRecs := flowRecords(o, "")
	for name, fo := range map[string]*ForwardOptions{"blind": {}, "intercept-all": {Intercept: newTestCA(t).serverConfig}} {
		t.Run(name, func(t *testing.T) {
			stop, buf, c := forwardProxy(t, fo, nil)
			cc := connectClient(t, c)
			got := flow(t, cc, o)
			cc.CloseIdleConnections() // ends the tunnels
			stop()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("answers (-direct +proxied):\n%s", diff)
			}
			var shapes []string
			for _, r := range buf.records(t) {
				shapes = append(shapes, shape(&r))
			}
			if diff := cmp.Diff(wantRecs, shapes); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if bytes.Contains(buf.b.Bytes(), []byte(canary)) {
				t.Errorf("the canary is in the capture")
			}
		})
	}
}

// TestInterceptedTunnelIdle: an intercepted tunnel that carries no request
// for ForwardOptions.TunnelIdle is closed by the proxy, so a client's idle
// keep-alive cannot hold the tunnel (and its goroutines) for ever.
func TestInterceptedTunnelIdle(t *testing.T) {
	origin := httptest.NewTLSServer(oauthOrigin())
	defer origin.Close()
	ca := newTestCA(t)
	fo := &ForwardOptions{Intercept: ca.serverConfig, RootCAs: originPool(origin), TunnelIdle: 50 * time.Millisecond}
	stop, _, c := forwardProxy(t, fo, ca.pool())
	defer stop()
	pu, err := c.Transport.(*http.Transport).Proxy(nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", pu.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	host := strings.TrimPrefix(origin.URL, "https://")
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", host, host)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	tc := tls.Client(conn, &tls.Config{RootCAs: ca.pool(), ServerName: "127.0.0.1"})
	fmt.Fprintf(tc, "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: %s\r\n\r\n", host)
	tbr := bufio.NewReader(tc)
	inner, err := http.ReadResponse(tbr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, inner.Body); err != nil {
		t.Fatal(err)
	}
	inner.Body.Close()
	if inner.StatusCode != http.StatusOK || inner.Close {
		t.Fatalf("inner status %d, close %v: want 200 on a kept-alive tunnel", inner.StatusCode, inner.Close)
	}
	// Far past the idle timeout; a deadline error means it was kept.
	if err := conn.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := tbr.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("reading the idle tunnel: %v, want EOF (closed by the proxy)", err)
	}
}
