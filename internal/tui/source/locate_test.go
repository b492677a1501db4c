package source

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestLocateBeforeHeader: a capture a writer has created but not yet
// written its session record to is followed from its first session (Follow
// waits for the header), not refused as not a capture; a file whose first
// line is complete and not a session record still is.
func TestLocateBeforeHeader(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, content, id string
		wantErr           error
	}{
		{"empty", "", "", nil},
		{"half a header", `{"type":"session","format":1,"sess`, "", nil},
		{"empty, an id asked", "", "abc", capture.ErrNotCapture},
		{"not a capture", "hello\n", "", capture.ErrNotCapture},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+capture.Ext)
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			sess, err := locate(path, tt.id)
			if !errors.Is(err, tt.wantErr) || (err == nil && sess != nil) {
				t.Errorf("locate = %v, %v; want nil, %v", sess, err, tt.wantErr)
			}
		})
	}
}
