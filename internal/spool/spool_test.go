package spool

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestSpoolSpills checks that what goes through a spool comes out whole
// and in order, across the spill from memory to its temporary file.
func TestSpoolSpills(t *testing.T) {
	t.Parallel()
	s := New(t.TempDir(), ".mcptrail-test", 0)
	defer s.Remove()
	var want bytes.Buffer
	for i := 0; want.Len() < 3*DefaultMemory; i++ {
		part := []byte(strings.Repeat(string(rune('a'+i%26)), 1+i%70000))
		want.Write(part)
		if _, err := s.Write(part); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Spilled() {
		t.Fatal("the spool never spilled to its file")
	}
	var got bytes.Buffer
	if _, err := s.WriteTo(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("spool gave back %d bytes, want the %d written", got.Len(), want.Len())
	}
}

// TestSpoolReadAt checks that ReadAt and Len give back what was written,
// at any offset, from memory (New) and from the file a NewFile spool keeps
// everything in, and that Remove may be called twice.
func TestSpoolReadAt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file, err := NewFile(dir, ".mcptrail-test")
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); runtime.GOOS != "windows" && len(ents) != 0 {
		t.Errorf("NewFile left %s in its directory; want it unlinked at once", ents[0].Name())
	}
	for name, s := range map[string]*Spool{"memory": New(t.TempDir(), ".mcptrail-test", 0), "file": file} {
		var want bytes.Buffer
		for i := range 300 {
			part := []byte(strings.Repeat(string(rune('a'+i%26)), 1+i*7))
			want.Write(part)
			if _, err := s.Write(part); err != nil {
				t.Fatal(err)
			}
		}
		if s.Len() != int64(want.Len()) || s.Spilled() != (name == "file") {
			t.Fatalf("%s: Len %d, Spilled %v; want %d, %v", name, s.Len(), s.Spilled(), want.Len(), name == "file")
		}
		for _, off := range []int{0, 1, 4095, want.Len() - 10} {
			got := make([]byte, 10)
			if _, err := s.ReadAt(got, int64(off)); err != nil {
				t.Fatalf("%s: ReadAt(%d): %v", name, off, err)
			}
			if !bytes.Equal(got, want.Bytes()[off:off+10]) {
				t.Errorf("%s: ReadAt(%d) = %q, want %q", name, off, got, want.Bytes()[off:off+10])
			}
		}
		if n, err := s.ReadAt(make([]byte, 20), int64(want.Len()-10)); n != 10 || err == nil {
			t.Errorf("%s: ReadAt past the end = %d, %v; want 10 and io.EOF", name, n, err)
		}
		if err := s.Remove(); err != nil {
			t.Errorf("%s: Remove: %v", name, err)
		}
		if err := s.Remove(); err != nil {
			t.Errorf("%s: second Remove: %v", name, err)
		}
	}
}
