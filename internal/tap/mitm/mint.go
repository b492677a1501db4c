package mitm

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/user"
	"time"
)

// newCA makes the CA's key and self-signed certificate and returns both
// DER-encoded (the key as PKCS #8). With hosts (canonical) the
// certificate carries name constraints permitting those alone
// (constrain); without, the hosts a user will intercept are not known
// and it has none.
func newCA(now time.Time, hosts []string) (certDER, keyDER []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generating CA key: %w", err)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject: pkix.Name{
			CommonName:   "mcptrail local CA " + owner(),
			Organization: []string{"mcptrail"},
		},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caLifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLen:            0,
		MaxPathLenZero:        true, // it signs leaves, never another CA
	}
	constrain(tmpl, hosts)
	certDER, err = x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, nil, fmt.Errorf("creating CA certificate: %w", err)
	}
	keyDER, err = x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding CA key: %w", err)
	}
	return certDER, keyDER, nil
}

// owner names whose CA this is, as user@host, so that a trust store
// listing several tells them apart; a random suffix when neither is known.
func owner() string {
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		if name == "" {
			return h
		}
		return name + "@" + h
	}
	if name != "" {
		return name
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newSerial is a random 128-bit serial number (RFC 5280 allows 20 octets).
func newSerial() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, fmt.Errorf("generating serial number: %w", err)
	}
	return n.Add(n, big.NewInt(1)), nil // never 0
}

// mintLeaf makes a server certificate for host (canonicalHost's spelling)
// with a fresh key, signed by the CA.
func mintLeaf(ca *x509.Certificate, caKey *ecdsa.PrivateKey, host string, now time.Time) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("generating key for %s: %w", host, err)
	}
	serial, err := newSerial()
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		// The host is in the SANs alone: OpenSSL checks a CN that looks
		// like a DNS name (an IP's does) against the CA's DNS constraints.
		Subject:     pkix.Name{Organization: []string{"mcptrail"}, OrganizationalUnit: []string{"mcptrail intercept leaf"}},
		NotBefore:   now.Add(-leafBackdate),
		NotAfter:    now.Add(leafLifetime),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if tmpl.NotAfter.After(ca.NotAfter) {
		tmpl.NotAfter = ca.NotAfter
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("minting a certificate for %s: %w", host, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("minting a certificate for %s: %w", host, err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}
