package cli

import (
	"fmt"

	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/replay"
	"github.com/mcptrail/mcptrail/internal/store"
)

// minSlowerMS is the least duration a replayed call must take to count as
// slower: a call of a few milliseconds that took twice as long is noise.
// diff applies the same floor.
const minSlowerMS = diff.DefaultMinSlowerMS

// compareReplay reads the replay's new capture, prints how it differs from
// the original (nothing when it does not) and reports whether it does.
func compareReplay(ios *IOStreams, orig *store.Snapshot, plan *replay.Plan, res *replay.Result, path string, dopts diff.Options, reg *finding.Registry) (bool, error) {
	got, closeGot, err := readRulesSnapshot(ios, path, "", reg)
	if err != nil {
		return false, fmt.Errorf("reading the new capture: %w", err)
	}
	defer closeGot()
	cmp, err := replay.Compare(orig, got, plan, res, dopts)
	if err != nil {
		return false, err
	}
	switch n := cmp.ClientFindings; {
	case n == 1:
		fmt.Fprintf(ios.ErrOut, "mcptrail: 1 finding of the recording concerns its client or the capture, not the server; replay does not compare it\n")
	case n > 1:
		fmt.Fprintf(ios.ErrOut, "mcptrail: %d findings of the recording concern its client or the capture, not the server; replay does not compare them\n", n)
	}
	if !cmp.Report.Differs() {
		return false, nil
	}
	return true, cmp.Report.WriteText(ios.Out)
}
