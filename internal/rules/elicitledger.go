package rules

import (
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Finish runs the elicitation rules that the store's ledger decides: the
// mode the client did not declare and the insecure url (the row's
// observations), the question left unanswered at the end of the session,
// and the destructive tool call that no accepted question approved.
func (el *Elicitation) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	for i := range s.Ledger.Len() {
		row := s.Ledger.At(i)
		ledgerRow(&row, s.Session.Ended, raise)
	}
	approvals(s, raise)
}

// ledgerRow raises the findings of one ledger row.
func ledgerRow(row *store.LedgerRow, ended bool, raise func(finding.Finding)) {
	add := func(f finding.Finding) {
		f.Line = row.AskedLine
		if row.Call >= 0 {
			f = f.OfCall(row.Call)
		}
		raise(f)
	}
	where := "elicitation/create"
	if row.Era == store.LedgerMRTR {
		where = "inputRequests[" + strconv.Quote(row.Key) + "]"
	}
	var insecure []string
	for _, o := range row.Observations {
		switch o {
		case store.ObsModeUndeclared:
			add(finding.New(finding.ElicitModeUndeclared, row.AskedSeq, "%s asks in %s mode, which the client did not declare", where, row.Mode))
		case store.ObsSchemeNotHTTPS:
			insecure = append(insecure, "the scheme is not https")
		case store.ObsHostIPLiteral:
			insecure = append(insecure, "the host is an IP address")
		case store.ObsHostIDN:
			insecure = append(insecure, "the host has a punycode or non-ASCII label")
		case store.ObsURLUserinfo:
			insecure = append(insecure, "the url carries credentials (userinfo)")
		}
	}
	if len(insecure) > 0 {
		add(finding.New(finding.ElicitURLInsecure, row.AskedSeq, "%s url mode (host %q): %s", where, row.Host, strings.Join(insecure, "; ")))
	}
	if ended && row.Status == store.LedgerPending {
		add(finding.New(finding.ElicitUnanswered, row.AskedSeq, "%s (%s mode) was never answered", where, row.Mode))
	}
}

// approvals raises approval-missing for each client tools/call that
// completed on a tool the catalog declares destructive, when no
// question of its operation (or, legacy, of the call) was accepted.
func approvals(s *store.Snapshot, raise func(finding.Finding)) {
	destructive := destructiveTools(s.Catalog)
	if len(destructive) == 0 {
		return
	}
	accepted := map[int]bool{} // by operation; by -2-call for calls of no operation
	for i := range s.Ledger.Len() {
		row := s.Ledger.At(i)
		if row.Action != mcp.ActionAccept {
			continue
		}
		if row.Operation >= 0 {
			accepted[row.Operation] = true
		} else if row.Root.Call >= 0 {
			accepted[-2-row.Root.Call] = true
		}
	}
	for i := range s.Calls.Len() {
		c := s.Calls.At(i)
		if c.Dir != capture.C2S || c.Method != "tools/call" || c.Status != store.StatusOK || !destructive[c.Target] {
			continue
		}
		key := -2 - c.Index
		if c.Operation >= 0 {
			key = c.Operation
		}
		if !accepted[key] {
			raise(finding.New(finding.ApprovalMissing, c.ResponseSeq,
				"tools/call %q (destructiveHint) completed without an accepted elicitation", c.Target).OfCall(c.Index))
		}
	}
}

// destructiveTools returns the names of the catalog's tools a definition
// declares destructiveHint: true (mcp.DestructiveDeclared: a repeated
// member counts as its last, readOnlyHint: true overrides it).
// A tool without annotations is not one: MCP assumes it destructive, but
// most servers annotate nothing, and a finding on every such call would
// flag sessions that did nothing wrong.
func destructiveTools(cat *store.Catalog) map[string]bool {
	out := map[string]bool{}
	if cat == nil {
		return out
	}
	for _, l := range cat.Lists {
		if l.Kind != store.KindTool {
			continue
		}
		for _, d := range l.Definitions {
			if mcp.ToolDestructiveness(d.Annotations) == mcp.DestructiveDeclared {
				out[d.Key] = true
			}
		}
	}
	return out
}
