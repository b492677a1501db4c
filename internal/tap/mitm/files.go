package mitm

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

func certPath(dir string) string { return filepath.Join(dir, certFile) }
func keyPath(dir string) string  { return filepath.Join(dir, keyFile) }

// loadOrCreate reads the CA in dir, or creates it, constrained to hosts
// (canonical) when there are any, when dir holds neither file.
func loadOrCreate(dir string, hosts []string, now time.Time) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("creating CA directory: %w", err)
	}
	_, certErr := os.Lstat(certPath(dir))
	_, keyErr := os.Lstat(keyPath(dir))
	certMissing, keyMissing := errors.Is(certErr, fs.ErrNotExist), errors.Is(keyErr, fs.ErrNotExist)
	switch {
	case certMissing && keyMissing:
		if err := create(dir, hosts, now); err != nil {
			return nil, nil, err
		}
	case certMissing != keyMissing:
		have, missing := keyPath(dir), certPath(dir)
		if keyMissing {
			have, missing = missing, have
		}
		return nil, nil, fmt.Errorf("loading CA: %w: %s is there but %s is not; move the directory %s aside to create a new CA",
			ErrIncomplete, have, missing, dir)
	}
	return load(dir, now)
}

// load reads and checks the CA's two files.
func load(dir string, now time.Time) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	key, err := readKey(keyPath(dir))
	if err != nil {
		return nil, nil, err
	}
	cert, err := readCert(certPath(dir))
	if err != nil {
		return nil, nil, err
	}
	pub, ok := cert.PublicKey.(*ecdsa.PublicKey)
	if !ok || !pub.Equal(key.Public()) || !cert.IsCA {
		return nil, nil, fmt.Errorf("loading CA: %w: %s is not the CA certificate of %s; move the directory %s aside to create a new CA",
			ErrMismatch, certPath(dir), keyPath(dir), dir)
	}
	if now.After(cert.NotAfter) {
		return nil, nil, fmt.Errorf("loading CA: %s expired on %s; move the directory %s aside to create a new CA",
			certPath(dir), cert.NotAfter.UTC().Format(time.DateOnly), dir)
	}
	return cert, key, nil
}

// readKey reads the CA key, refusing a key file others may access.
func readKey(path string) (*ecdsa.PrivateKey, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("loading CA key: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("loading CA key: %s is not a regular file", path)
	}
	if err := checkKeyMode(path, fi.Mode()); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading CA key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("loading CA key: %s holds no PEM private key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		// The parser's message never quotes the key's bytes.
		return nil, fmt.Errorf("loading CA key %s: %w", path, err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("loading CA key: %s is a %T, not an ECDSA key", path, k)
	}
	return key, nil
}

// readCert reads the CA certificate.
func readCert(path string) (*x509.Certificate, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading CA certificate: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("loading CA certificate: %s holds no PEM certificate", path)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("loading CA certificate %s: %w", path, err)
	}
	return cert, nil
}

// create makes a new CA in dir. Each file is written to a temporary file
// in dir (created 0600) and renamed into place, key first; the key's name
// is taken with a hard link where the file system has them, so that of two
// processes creating a CA at once one wins and the other loads its CA.
func create(dir string, hosts []string, now time.Time) error {
	certDER, keyDER, err := newCA(now, hosts)
	if err != nil {
		return err
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: certDER})
	certTmp, err := writeTemp(dir, certPEM, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(certTmp)
	keyTmp, err := writeTemp(dir, keyPEM, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(keyTmp)
	switch err := os.Link(keyTmp, keyPath(dir)); {
	case errors.Is(err, fs.ErrExist):
		return nil // another process made the CA first: load theirs
	case err != nil:
		if err := os.Rename(keyTmp, keyPath(dir)); err != nil {
			return fmt.Errorf("writing CA key: %w", err)
		}
	}
	if err := os.Rename(certTmp, certPath(dir)); err != nil {
		return fmt.Errorf("writing CA certificate: %w", err)
	}
	return nil
}

// writeTemp writes b to a new file in dir, created 0600 (os.CreateTemp),
// synced, then given mode, and returns its name.
func writeTemp(dir string, b []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("writing CA: %w", err)
	}
	name := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && mode != 0o600 {
		err = os.Chmod(name, mode)
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("writing CA: %w", err)
	}
	return name, nil
}
