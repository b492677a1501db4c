package otlp

import (
	"bytes"
	"strings"
	"testing"
)

// TestSpoolSpills checks that what goes through a spool comes out whole
// and in order, across the spill from memory to its temporary file.
func TestSpoolSpills(t *testing.T) {
	t.Parallel()
	s := spool{dir: t.TempDir()}
	defer s.remove()
	var want bytes.Buffer
	for i := 0; want.Len() < 3*spoolMemory; i++ {
		part := []byte(strings.Repeat(string(rune('a'+i%26)), 1+i%70000))
		want.Write(part)
		if _, err := s.Write(part); err != nil {
			t.Fatal(err)
		}
	}
	if s.file == nil {
		t.Fatal("the spool never spilled to its file")
	}
	var got bytes.Buffer
	if err := s.copyTo(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("spool gave back %d bytes, want the %d written", got.Len(), want.Len())
	}
}
