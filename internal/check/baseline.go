package check

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// BaselineVersion is the version of the baseline file format.
const BaselineVersion = 1

// Baseline is a baseline file: the fingerprints of known problems, which
// a later run suppresses. docs/check.md documents the file:
//
//	{"version": 1, "tool": "0.1.0-dev", "findings": [
//	  {"fingerprint": "…", "rule": "unanswered-request", "call": "tools/call slow",
//	   "message": "c2s tools/call id 4 was never answered"}]}
//
// Only fingerprint matters to a run; the rest is for the reader.
type Baseline struct {
	Version  int             `json:"version"`
	Tool     string          `json:"tool,omitempty"`
	Findings []BaselineEntry `json:"findings"`

	set map[string]bool
}

// BaselineEntry is one known problem.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	Call        string `json:"call,omitempty"`
	Message     string `json:"message"`
}

func entryOf(it *Item) BaselineEntry {
	return BaselineEntry{Fingerprint: it.Fingerprint, Rule: it.Rule, Call: it.Call, Message: it.Message}
}

// ReadBaseline reads a baseline file.
func ReadBaseline(r io.Reader) (*Baseline, error) {
	var b Baseline
	if err := json.UnmarshalRead(r, &b); err != nil {
		return nil, fmt.Errorf("decoding baseline: %w", err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("decoding baseline: version %d (this mcptrail reads version %d)", b.Version, BaselineVersion)
	}
	b.set = make(map[string]bool, len(b.Findings))
	for _, e := range b.Findings {
		b.set[e.Fingerprint] = true
	}
	return &b, nil
}

// has reports whether b knows fingerprint; a nil b knows none.
func (b *Baseline) has(fingerprint string) bool {
	return b != nil && b.set[fingerprint]
}

// WriteBaseline writes the baseline of every item checked so far, those
// the given baseline suppressed too, one entry per fingerprint, sorted.
func (c *Checker) WriteBaseline(w io.Writer) error {
	entries := slices.Clone(c.seen)
	slices.SortFunc(entries, func(a, b BaselineEntry) int { return strings.Compare(a.Fingerprint, b.Fingerprint) })
	entries = slices.CompactFunc(entries, func(a, b BaselineEntry) bool { return a.Fingerprint == b.Fingerprint })
	if entries == nil {
		entries = []BaselineEntry{}
	}
	b := Baseline{Version: BaselineVersion, Tool: c.opts.Tool, Findings: entries}
	out, err := json.Marshal(&b, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return fmt.Errorf("encoding baseline: %w", err)
	}
	if _, err := w.Write(append(out, '\n')); err != nil {
		return fmt.Errorf("writing baseline: %w", err)
	}
	return nil
}
