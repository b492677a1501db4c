package mitm

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestKeyAccessibleToOthersRefused(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Unix permission bits")
	}
	for _, mode := range []os.FileMode{0o644, 0o640, 0o602} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "ca")
			if _, err := Open(dir, nil); err != nil {
				t.Fatal(err)
			}
			key := filepath.Join(dir, "key.pem")
			before := readFile(t, key)
			if err := os.Chmod(key, mode); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir, nil)
			if !errors.Is(err, ErrKeyMode) {
				t.Fatalf("Open with the key %v: err = %v, want ErrKeyMode", mode, err)
			}
			if !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "chmod 600") {
				t.Errorf("error does not name the key and the fix: %v", err)
			}
			if !bytes.Equal(before, readFile(t, key)) {
				t.Error("the refused key was rewritten")
			}
		})
	}
}

func TestBrokenCARefused(t *testing.T) {
	t.Parallel()
	other := filepath.Join(t.TempDir(), "other")
	if _, err := Open(other, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		spoil func(t *testing.T, dir string)
		want  error
	}{
		{"another CA's certificate", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "cert.pem"), readFile(t, filepath.Join(other, "cert.pem")))
		}, ErrMismatch},
		{"certificate missing", func(t *testing.T, dir string) {
			removeFile(t, filepath.Join(dir, "cert.pem"))
		}, ErrIncomplete},
		{"key missing", func(t *testing.T, dir string) {
			removeFile(t, filepath.Join(dir, "key.pem"))
		}, ErrIncomplete},
		{"certificate not PEM", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "cert.pem"), []byte("not a certificate\n"))
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "ca")
			if _, err := Open(dir, nil); err != nil {
				t.Fatal(err)
			}
			tt.spoil(t, dir)
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Open(dir, nil)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("Open: err = %v, want %v", err, tt.want)
			}
			after, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(after) != len(entries) {
				t.Errorf("Open wrote into a broken CA directory: %v, was %v", names(after), names(entries))
			}
		})
	}
}

// TestKeyWrittenNowhereElse opens a new CA and mints leaves, then reads
// every file under the state directory and the temporary directory: the
// key, as PEM, as DER or as its bare scalar, is in key.pem only.
func TestKeyWrittenNowhereElse(t *testing.T) {
	tmp := t.TempDir()
	for _, v := range []string{"TMPDIR", "TMP", "TEMP"} {
		t.Setenv(v, tmp) // where os.CreateTemp("", …) would write
	}
	state := t.TempDir()
	a, err := Open(filepath.Join(state, "ca"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"example.test", "127.0.0.1"} {
		if _, err := a.ServerConfig(host); err != nil {
			t.Fatal(err)
		}
	}
	keyPEM := readFile(t, filepath.Join(state, "ca", "key.pem"))
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		t.Fatal("key.pem holds no PEM")
	}
	if _, err := x509.ParsePKCS8PrivateKey(block.Bytes); err != nil {
		t.Fatal(err)
	}
	scalar, err := a.key.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string][]byte{"PEM": keyPEM, "DER": block.Bytes, "scalar": scalar}
	var holders []string
	for _, root := range []string{state, tmp} {
		holders = append(holders, filesHolding(t, root, secrets)...)
	}
	want := filepath.Join(state, "ca", "key.pem")
	if len(holders) != 1 || holders[0] != want {
		t.Errorf("files holding the key: %q, want only %s", holders, want)
	}
}

// filesHolding walks root and lists the files holding any of secrets.
func filesHolding(t *testing.T, root string, secrets map[string][]byte) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if bytes.Contains(b, s) {
				found = append(found, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func removeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}
