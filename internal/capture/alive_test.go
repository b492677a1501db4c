package capture

import (
	"path/filepath"
	"testing"
)

func TestWriterAlive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, err := CreateFile(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if alive, known := WriterAlive(path); !alive && known {
		t.Errorf("WriterAlive while the writer holds the file = false, want true")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if alive, _ := WriterAlive(path); alive {
		t.Errorf("WriterAlive after the writer closed the file = true, want false")
	}
	if alive, known := WriterAlive(filepath.Join(t.TempDir(), "missing.jsonl")); alive || known {
		t.Errorf("WriterAlive(missing) = %v, %v, want false, false", alive, known)
	}
	// The probe leaves the file free for the next writer.
	f, err = CreateFile(path, Append)
	if err != nil {
		t.Fatalf("appending after a probe: %v", err)
	}
	f.Close()
}
