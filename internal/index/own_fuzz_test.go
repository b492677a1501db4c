package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpenKeepsTheBytes writes any bytes at the index's place and opens
// it: Open never panics, and the bytes survive, as they were, at the
// index's place or (an old or damaged index of ours) in index.db.old. Only
// an empty file or an index of ours is taken.
func FuzzOpenKeepsTheBytes(f *testing.F) {
	ours := f.TempDir()
	ix, err := Open(ours, nil)
	if err != nil {
		f.Fatal(err)
	}
	ix.Close()
	index, err := os.ReadFile(filepath.Join(ours, FileName))
	if err != nil {
		f.Fatal(err)
	}
	stale := bytes.Clone(index)
	binary.BigEndian.PutUint32(stale[60:], 1)
	damaged := bytes.Clone(index)
	for i := 100; i < len(damaged); i++ {
		damaged[i] = byte(i * 7)
	}
	for _, seed := range [][]byte{nil, []byte("my notes"), []byte(magic), index, stale, damaged, index[:100], index[:len(index)/2]} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		state := t.TempDir()
		path := filepath.Join(state, FileName)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		ix, err := Open(state, nil)
		if ix != nil {
			defer ix.Close()
		}
		now, _ := os.ReadFile(path)
		old, oldErr := os.ReadFile(path + OldSuffix)
		var fe *ForeignError
		switch {
		case errors.As(err, &fe):
			if !bytes.Equal(now, data) || !errors.Is(oldErr, fs.ErrNotExist) {
				t.Fatalf("refused (%v), but the file changed or an old one appeared", err)
			}
		case err != nil:
			t.Fatalf("Open: %v", err)
		case len(data) == 0:
		case oldErr == nil:
			if !bytes.Equal(old, data) {
				t.Fatalf("moved aside, but %s is not the file byte for byte", path+OldSuffix)
			}
		case len(data) < headerSize || binary.BigEndian.Uint32(data[68:]) != applicationID || !bytes.Equal(now, data):
			t.Fatalf("took a file that is not an index of ours, or changed it in place")
		}
	})
}
