// Package mitm is mcptrail's local certificate authority for `mcptrail
// http --forward --intercept`: a CA created once in the state directory
// (its key 0600, never written anywhere else) and leaf certificates
// minted from it on the fly, once per host, so the forward proxy can
// terminate the TLS of a CONNECT tunnel the user asked it to look into.
//
// It sits beside the HTTP tap: the forward proxy (internal/tap/httpproxy)
// asks ServerConfig for the host of a tunnel it intercepts, and `mcptrail
// ca` opens the authority to print where its certificate is. An Authority
// is safe for concurrent use; leaves are kept in memory only, the most
// recently used Options.MaxLeaves of them.
//
// An authority made for known hosts (Options.Hosts) carries X.509 name
// constraints: it can vouch for those hosts (and their subdomains) only,
// so its key, if it ever leaked, could not impersonate any other site to a
// client that trusts it. Dir names such an authority's own folder.
//
// On disk, in the directory given to Open (made 0700 when missing):
//
//	cert.pem  the CA certificate (PEM, 0644): what clients trust
//	key.pem   its ECDSA P-256 private key (PKCS #8 PEM, 0600)
//
// The key is written once, through a temporary file in the same directory
// created 0600, and read afterwards; it is never logged nor copied.
package mitm

import (
	"container/list"
	"crypto/ecdsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// File names inside the authority's directory.
const (
	certFile = "cert.pem"
	keyFile  = "key.pem"
)

// Validity of what the authority signs. The CA lasts a year: a client
// told to trust it need not be told again every few weeks, and one left
// in a trust store and forgotten stops being trusted within the year.
const (
	caLifetime   = 365 * 24 * time.Hour
	leafLifetime = 30 * 24 * time.Hour
	// leafBackdate covers a client clock a little behind ours.
	leafBackdate = 5 * time.Minute
	// leafRenew is how long before its end a cached leaf is replaced.
	leafRenew = time.Hour
)

// DefaultMaxLeaves is Options.MaxLeaves' zero value: about 7 MB of leaves.
const DefaultMaxLeaves = 1024

// Options configures an Authority.
type Options struct {
	// Hosts, when not empty, are the only hosts (DNS names or IP
	// literals, without port) the CA may vouch for: a CA created for them
	// carries name constraints, and ServerConfig refuses any other host.
	// Empty makes (or opens) a CA without constraints, for any host.
	Hosts []string
	// MaxLeaves bounds how many leaf certificates are kept in memory; the
	// least recently used is dropped (and minted again if asked for).
	// Zero means DefaultMaxLeaves.
	MaxLeaves int
}

// Errors Open returns, wrapped with the path concerned.
var (
	// ErrKeyMode: the key file can be read or written by other users.
	ErrKeyMode = errors.New("CA key file is accessible to other users")
	// ErrMismatch: the certificate is not the key's, or is not a CA.
	ErrMismatch = errors.New("CA certificate does not match its key")
	// ErrIncomplete: one of the two files is there without the other.
	ErrIncomplete = errors.New("CA directory is incomplete")
)

// Authority is a local CA. It is safe for concurrent use.
type Authority struct {
	dir  string
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// now is the clock; time.Now outside tests.
	now func() time.Time
	// max is Options.MaxLeaves, never zero.
	max int

	mu sync.Mutex
	// leaves holds the cached leaves by host; lru orders them, the most
	// recently used first (each element's Value is its *leaf).
	leaves map[string]*list.Element
	lru    list.List
	minted int
}

// leaf is one host's certificate; ready is closed once cert or err is set,
// so that concurrent askers for one host wait for a single minting.
type leaf struct {
	host  string
	ready chan struct{}
	cert  tls.Certificate
	err   error
}

// Open loads the CA kept in dir (Dir names it), creating it on first use,
// constrained to opts.Hosts when they are given; nil opts means no hosts
// and DefaultMaxLeaves. A key file other users may access (ErrKeyMode), a
// certificate that is not the key's (ErrMismatch) or a directory holding
// one file without the other (ErrIncomplete) is an error: Open never
// replaces a CA it finds.
func Open(dir string, opts *Options) (*Authority, error) {
	return open(dir, opts, time.Now)
}

func open(dir string, opts *Options, now func() time.Time) (*Authority, error) {
	if opts == nil {
		opts = &Options{}
	}
	hosts, err := canonicalHosts(opts.Hosts)
	if err != nil {
		return nil, err
	}
	cert, key, err := loadOrCreate(dir, hosts, now())
	if err != nil {
		return nil, err
	}
	a := &Authority{dir: dir, cert: cert, key: key, now: now, max: opts.MaxLeaves, leaves: map[string]*list.Element{}}
	if a.max <= 0 {
		a.max = DefaultMaxLeaves
	}
	return a, nil
}

// CertPath is the path of the CA certificate (PEM) clients must trust.
func (a *Authority) CertPath() string { return certPath(a.dir) }

// Subject is the CA certificate's common name, as a trust store lists it.
func (a *Authority) Subject() string { return a.cert.Subject.CommonName }

// NotAfter is when the CA certificate expires.
func (a *Authority) NotAfter() time.Time { return a.cert.NotAfter }

// Minted reports how many leaf certificates this Authority has minted.
func (a *Authority) Minted() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.minted
}

// Cached reports how many leaf certificates this Authority keeps in
// memory (at most Options.MaxLeaves).
func (a *Authority) Cached() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lru.Len()
}

// Constrained reports whether the CA carries name constraints, and the
// hosts and networks it may vouch for then.
func (a *Authority) Constrained() (names []string, ok bool) {
	c := a.cert
	names = append(names, c.PermittedDNSDomains...)
	for _, n := range c.PermittedIPRanges {
		names = append(names, n.String())
	}
	return names, c.PermittedDNSDomainsCritical || len(names) > 0 || len(c.ExcludedIPRanges) > 0
}

// ServerConfig returns a TLS configuration presenting a leaf certificate
// for host (a DNS name or an IP literal, without port), minted the first
// time host is asked for and reused afterwards. Each call returns a new
// *tls.Config the caller may change; it offers HTTP/1.1 only (ALPN
// "http/1.1"), TLS 1.2 at least.
func (a *Authority) ServerConfig(host string) (*tls.Config, error) {
	name, err := canonicalHost(host)
	if err != nil {
		return nil, err
	}
	if !permits(a.cert, name) {
		return nil, fmt.Errorf("minting a certificate: this CA (%s) may vouch only for the hosts it was made for, not %s", a.dir, name)
	}
	cert, err := a.leafFor(name)
	if err != nil {
		return nil, err
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   []string{"http/1.1"},
		MinVersion:   tls.VersionTLS12,
	}, nil
}

// leafFor returns host's cached leaf, minting it when there is none yet,
// or when the cached one failed or is near its end.
func (a *Authority) leafFor(host string) (tls.Certificate, error) {
	a.mu.Lock()
	if e, ok := a.leaves[host]; ok && a.usable(e.Value.(*leaf)) {
		a.lru.MoveToFront(e)
		l := e.Value.(*leaf)
		a.mu.Unlock()
		<-l.ready
		return l.cert, l.err
	}
	l := &leaf{host: host, ready: make(chan struct{})}
	a.keep(l)
	a.minted++
	a.mu.Unlock()
	l.cert, l.err = mintLeaf(a.cert, a.key, host, a.now())
	close(l.ready)
	return l.cert, l.err
}

// keep caches l as its host's leaf, the most recently used, dropping the
// least recently used leaf past the bound; a.mu is held. A dropped leaf
// still being minted is handed to those already waiting for it.
func (a *Authority) keep(l *leaf) {
	if old, ok := a.leaves[l.host]; ok {
		a.lru.Remove(old)
	}
	a.leaves[l.host] = a.lru.PushFront(l)
	for a.lru.Len() > a.max {
		last := a.lru.Back()
		a.lru.Remove(last)
		delete(a.leaves, last.Value.(*leaf).host)
	}
}

// usable reports whether the cached l may be handed out (or waited for);
// a.mu is held.
func (a *Authority) usable(l *leaf) bool {
	select {
	case <-l.ready:
		return l.err == nil && a.now().Add(leafRenew).Before(l.cert.Leaf.NotAfter)
	default:
		return true // being minted: wait for it
	}
}

// canonicalHost spells host as the cache key and the certificate's name:
// an IP literal as net.IP prints it (brackets and zone dropped), a DNS name
// in lower case without a trailing dot.
func canonicalHost(host string) (string, error) {
	h := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") {
		h = h[:i] // an IPv6 zone names an interface, not the peer
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || len(h) > 253 || strings.ContainsAny(h, ":/ \t\r\n") {
		return "", fmt.Errorf("minting a certificate: %q is not a host name", host)
	}
	return h, nil
}
