// Package check is mcptrail's CI gate over captures: it reads sessions
// through the store and the rules registry (plus the assertions given on
// the command line), decides which findings fail the run, suppresses those
// a baseline already knows, and writes the report as text, JSON, JUnit,
// SARIF 2.1.0 or GitHub workflow commands. It is a view: it never
// re-parses or correlates frames itself.
package check

import (
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// Report is the result of checking one or more captures.
type Report struct {
	// Tool is the mcptrail version that wrote the report (SARIF's
	// tool.driver.version).
	Tool string
	// FailOn is the least severity that fails the run.
	FailOn finding.Severity
	// Rules are the rules that were enabled for the run, in registry
	// order, with their effective (configured) severity.
	Rules []finding.Rule
	// Results holds one entry per session checked, in the order the
	// inputs were given (a file of several sessions gives several).
	Results []Result
}

// Result is what one session raised.
type Result struct {
	// Path is the capture file as the user named it (relative paths stay
	// relative, so reports are portable); "-" for standard input.
	Path      string
	SessionID string
	Label     string
	Damage    capture.Damage
	// Items are the findings of enabled rules, after the baseline, ordered
	// by seq.
	Items []Item
	// Suppressed counts the findings the baseline knew.
	Suppressed int
	// Unlisted reports whether the run had a tools baseline
	// (Options.Tools) but the session never got a tools/list result nor
	// a skills result, so nothing was compared with it.
	Unlisted bool
}

// Item is one finding in a report.
type Item struct {
	finding.Finding `json:",inline"`
	// Call describes the call the finding concerns ("tools/call
	// create_account", "initialize"), empty when none.
	Call string `json:"call"`
	// Fingerprint identifies the problem across runs: the same problem
	// in another capture of the same scenario gets the same fingerprint
	// (it does not depend on seqs, times, ids or file lines), different
	// problems get different ones. SARIF's partialFingerprints and the
	// baseline use it.
	Fingerprint string `json:"fingerprint"`
}

// Failing reports whether it fails a run whose threshold is failOn.
func (it *Item) Failing(failOn finding.Severity) bool {
	return rank(it.Severity) <= rank(failOn)
}

// rank orders severities, most severe first.
func rank(s finding.Severity) int {
	switch s {
	case finding.Error:
		return 0
	case finding.Warning:
		return 1
	}
	return 2
}

// Failed reports whether any item of the report fails the run.
func (r *Report) Failed() bool {
	for i := range r.Results {
		for j := range r.Results[i].Items {
			if r.Results[i].Items[j].Failing(r.FailOn) {
				return true
			}
		}
	}
	return false
}
