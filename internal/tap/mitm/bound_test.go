package mitm

import (
	"crypto/x509"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestLeafCacheBounded mints more leaves than the bound: the cache keeps
// the most recently used ones only, and a dropped host gets a new leaf.
func TestLeafCacheBounded(t *testing.T) {
	t.Parallel()
	const max = 8
	a, err := Open(filepath.Join(t.TempDir(), "ca"), &Options{MaxLeaves: max})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * max {
		if _, err := a.ServerConfig(fmt.Sprintf("h%d.example", i)); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ServerConfig("kept.example"); err != nil { // used all along
			t.Fatal(err)
		}
		if n := a.Cached(); n > max {
			t.Fatalf("after %d hosts the cache holds %d leaves, more than %d", i+2, n, max)
		}
	}
	if n := a.Cached(); n != max {
		t.Errorf("cache holds %d leaves, want %d", n, max)
	}
	minted := a.Minted()
	if minted != 3*max+1 {
		t.Errorf("Minted = %d, want %d", minted, 3*max+1)
	}
	if _, err := a.ServerConfig("kept.example"); err != nil || a.Minted() != minted {
		t.Errorf("the most recently used host was minted again (%d, %v)", a.Minted(), err)
	}
	if _, err := a.ServerConfig("h0.example"); err != nil || a.Minted() != minted+1 {
		t.Errorf("a dropped host was not minted again (%d, %v)", a.Minted(), err)
	}
}

// TestDefaultBound: without Options.MaxLeaves the bound is
// DefaultMaxLeaves.
func TestDefaultBound(t *testing.T) {
	t.Parallel()
	if a := openTest(t); a.max != DefaultMaxLeaves {
		t.Errorf("max = %d, want %d", a.max, DefaultMaxLeaves)
	}
}

// TestCALifetime: a new CA lasts a year, not ten.
func TestCALifetime(t *testing.T) {
	t.Parallel()
	a := openTest(t)
	if life := time.Until(a.NotAfter()); life > 366*24*time.Hour || life < 364*24*time.Hour {
		t.Errorf("the CA lasts %v, want a year", life)
	}
}

// TestNameConstraints: a CA made for known hosts verifies leaves for those
// hosts and their subdomains only: a leaf for another name or an IP,
// signed with its key (as a thief of the key would), fails x509
// verification, and ServerConfig refuses such hosts.
func TestNameConstraints(t *testing.T) {
	t.Parallel()
	a, err := Open(filepath.Join(t.TempDir(), "ca"), &Options{Hosts: []string{"MCP.example.com", "auth.example.com", "192.0.2.7"}})
	if err != nil {
		t.Fatal(err)
	}
	roots := caPool(t, a)
	if names, ok := a.Constrained(); !ok || len(names) != 3 {
		t.Errorf("Constrained = %v, %v; want the three hosts", names, ok)
	}
	for host, ok := range map[string]bool{
		"mcp.example.com": true, "auth.example.com": true, "eu.mcp.example.com": true, "192.0.2.7": true,
		"evil.example": false, "example.com": false, "xmcp.example.com": false, "127.0.0.1": false, "192.0.2.8": false,
	} {
		leaf, err := mintLeaf(a.cert, a.key, host, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		_, verr := leaf.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots})
		if (verr == nil) != ok {
			t.Errorf("leaf for %s: verify error %v, want ok=%v", host, verr, ok)
		}
		if _, err := a.ServerConfig(host); (err == nil) != ok {
			t.Errorf("ServerConfig(%s): %v, want ok=%v", host, err, ok)
		}
	}
}

// TestDNSOnlyConstraints: a CA for DNS names alone vouches for no IP
// address, and one for an IP alone for no DNS name.
func TestDNSOnlyConstraints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ listed, other string }{{"a.example", "10.0.0.1"}, {"10.0.0.1", "a.example"}} {
		a, err := Open(filepath.Join(t.TempDir(), "ca"), &Options{Hosts: []string{tc.listed}})
		if err != nil {
			t.Fatal(err)
		}
		leaf, err := mintLeaf(a.cert, a.key, tc.other, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := leaf.Leaf.Verify(x509.VerifyOptions{DNSName: tc.other, Roots: caPool(t, a)}); err == nil {
			t.Errorf("a CA for %s verified a leaf for %s", tc.listed, tc.other)
		}
	}
}

// TestDir: one folder per set of hosts, whatever their order or case; no
// hosts is the "ca" folder.
func TestDir(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	if d := Dir(state, nil); d != filepath.Join(state, "ca") {
		t.Errorf("Dir(no hosts) = %s", d)
	}
	ab, ba := Dir(state, []string{"a.example", "b.example"}), Dir(state, []string{"B.example", "a.example", "a.example"})
	if ab != ba || filepath.Dir(ab) != filepath.Join(state, "ca") {
		t.Errorf("Dir(a, b) = %s, Dir(B, a, a) = %s; want one folder inside ca", ab, ba)
	}
	if c := Dir(state, []string{"a.example"}); c == ab {
		t.Errorf("Dir(a) = Dir(a, b) = %s", c)
	}
}
