package cli

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/replay"
	"github.com/mcptrail/mcptrail/internal/store"
)

// minSlowerMS is the least duration a replayed call must take to count as
// slower: a call of a few milliseconds that took twice as long is noise.
// diff applies the same floor.
const minSlowerMS = diff.DefaultMinSlowerMS

// isPointer reports whether p is a JSON Pointer as diff --ignore takes it:
// "" (the whole result) or a path starting with /.
func isPointer(p string) bool { return p == "" || strings.HasPrefix(p, "/") }

// replayIgnore returns the pointers replay does not compare: the
// configuration's [replay] ignore, then --ignore's.
func replayIgnore(cfg *config, flags []string) ([]string, error) {
	for _, p := range flags {
		if !isPointer(p) {
			return nil, usagef("--ignore %q: want a JSON Pointer such as /content/0/text", p)
		}
	}
	return append(append([]string(nil), cfg.ReplayIgnore...), flags...), nil
}

// replayJSON is what replay --json writes (docs/replay.md).
type replayJSON struct {
	// Differs is the exit status's reason: anything differs beyond the
	// noise, or a question went unanswered.
	Differs bool         `json:"differs"`
	Report  *diff.Report `json:"report"`
	// Volatile is what was treated as noise; null with --no-learn.
	Volatile *replay.Noise `json:"volatile"`
	// Unanswered lists the server's questions the recording had no
	// answer for.
	Unanswered []replay.Question `json:"unanswered"`
	// ClientFindings counts the recording's findings about its client or
	// the capture, which are not compared.
	ClientFindings int `json:"client_findings"`
}

// compareReplay reads the replay's new capture, prints how it differs from
// the original beyond noise (nothing when it does not), then what was
// treated as noise, and reports whether it differs.
func compareReplay(fac *Factory, orig *store.Snapshot, plan *replay.Plan, res *replay.Result, path string, dopts diff.Options, reg *finding.Registry, noise *replay.Noise, asJSON bool) (bool, error) {
	ios := fac.IOStreams
	got, closeGot, err := readRulesSnapshot(fac, path, "", reg)
	if err != nil {
		return false, fmt.Errorf("reading the new capture: %w", err)
	}
	defer closeGot()
	cmp, err := replay.Compare(orig, got, plan, res, dopts)
	if err != nil {
		return false, err
	}
	if noise != nil {
		cmp.Quiet(noise)
	}
	switch n := cmp.ClientFindings; {
	case n == 1:
		fmt.Fprintf(ios.ErrOut, "mcptrail: 1 finding of the recording concerns its client or the capture, not the server; replay does not compare it\n")
	case n > 1:
		fmt.Fprintf(ios.ErrOut, "mcptrail: %d findings of the recording concern its client or the capture, not the server; replay does not compare them\n", n)
	}
	differs := cmp.Report.Differs()
	if asJSON {
		doc := replayJSON{Differs: differs || len(res.Unanswered) > 0, Report: cmp.Report, Volatile: noise,
			Unanswered: res.Unanswered, ClientFindings: cmp.ClientFindings}
		if doc.Unanswered == nil {
			doc.Unanswered = []replay.Question{}
		}
		b, err := json.Marshal(doc, jsontext.WithIndent("  "))
		if err != nil {
			return false, fmt.Errorf("writing the comparison: %w", err)
		}
		return differs, writeJSON(ios.Out, append(b, '\n'))
	}
	if differs {
		if err := cmp.Report.WriteTextColor(ios.Out, ios.colorOn()); err != nil {
			return false, err
		}
	}
	return differs, noise.WriteText(ios.Out)
}
