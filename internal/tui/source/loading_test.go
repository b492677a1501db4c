package source_test

import (
	"context"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestLoadingUntilEOF opens a large capture whose writer is still there:
// every Data delivered before the first read reached the end of the file
// is Loading (its counts provisional), at least one is, and once caught
// up the Data is no longer Loading though the session is still live.
func TestLoadingUntilEOF(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	w := newWriter(t, path, "big")
	defer w.close()
	const total = 40_000
	for id := 1; id <= total; id++ {
		w.call(id, `{"n":1}`)
	}
	w.flush()
	s, err := source.Open(context.Background(), path, "", &source.Options{Interval: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	loading := 0
	d := until(t, s, "the backlog read", func(d ui.Data) bool {
		if d.Loading {
			loading++
			return false
		}
		return true
	})
	if loading == 0 {
		t.Errorf("no Data was Loading while %d calls were read", total)
	}
	if got := calls(d); got != total {
		t.Errorf("first Data not Loading holds %d calls, want all %d", got, total)
	}
	if !d.Live {
		t.Error("the caught-up Data is not live while the writer is there")
	}
}
