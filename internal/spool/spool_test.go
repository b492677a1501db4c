package spool

import (
	"bytes"
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
