// Package mitm is mcptrail's local certificate authority for `mcptrail
// http --forward --intercept`: a CA created once in the state directory
// (its key 0600, never written anywhere else) and leaf certificates
// minted from it on the fly, once per host, so the forward proxy can
// terminate the TLS of a CONNECT tunnel the user asked it to look into.
//
// CONTRACT STUB: the API below is what the forward proxy and `mcptrail ca`
// use; the implementation is being built.
package mitm

import (
	"crypto/tls"
	"errors"
)

// ErrNotBuilt is returned until the authority is implemented.
var ErrNotBuilt = errors.New("mitm: not built yet")

// Authority is a local CA. It is safe for concurrent use.
type Authority struct {
	dir string
}

// Open loads the CA kept in dir (the state directory's "ca" folder),
// creating it on first use.
func Open(dir string) (*Authority, error) { return nil, ErrNotBuilt }

// CertPath is the path of the CA certificate (PEM) clients must trust.
func (a *Authority) CertPath() string { return "" }

// ServerConfig returns a TLS configuration presenting a leaf certificate
// for host (a DNS name or an IP literal, without port), minted the first
// time host is asked for and reused afterwards.
func (a *Authority) ServerConfig(host string) (*tls.Config, error) { return nil, ErrNotBuilt }
